import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { ApiError } from '../../lib/api/errors';
import type { Plan } from '../../lib/api/schemas/account';
import { PROJECT_ROOT } from '../../server/core/config';

const MAIN = path.join(PROJECT_ROOT, 'server', 'boot', 'main.ts');
// Under the hook timeout (vitest.config.ts), so that a service that does not start fails with its logs.
const START_TIMEOUT_MS = 150_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ServiceHandle {
  baseUrl: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Every stderr line so far (JSON logs). */
  logs: string[];
  /** Creates an account with a key through the real command line, as an operator would. */
  createKey(plan: Plan, name?: string): Promise<string>;
  /** Runs `keys …` (or any arguments) of the command line on this service's data dir. */
  cli(args: string[]): Promise<CliResult>;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** Stops the service if it runs and removes the data dir if the harness made it. */
  close(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function createDataDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'pp-service-'));
}

/**
 * Starts the real service as a child process (`node --import tsx server/boot/main.ts [args]`) on a free port and a
 * data dir (a new temp dir unless given), and resolves once it logs that it listens.
 */
export async function startService(
  options: { env?: Record<string, string>; dataDir?: string; args?: string[] } = {},
): Promise<ServiceHandle> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await createDataDir());
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...(options.args ?? [])], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const logs: string[] = [];
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start:\n${logs.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      logs.push(line);
      const record = parseJson(line);
      if (record?.msg === 'listening' && typeof record.port === 'number') {
        clearTimeout(timer);
        resolve(record.port);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${logs.join('\n')}`));
    });
  });
  const port = await listening.catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  });

  const cli = (args: string[]) => runCli(args, { dataDir, env: options.env });
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid ?? -1,
    dataDir,
    logs,
    cli,
    async createKey(plan, name) {
      const result = await cli(['keys', 'create', '--plan', plan, ...(name ? ['--name', name] : [])]);
      if (result.code !== 0) throw new Error(`keys create failed (${result.code}): ${result.stderr}`);
      return result.stdout.trim();
    },
    stop: () => stopWith('SIGTERM'),
    kill: async () => {
      await stopWith('SIGKILL');
    },
    async close() {
      await stopWith('SIGTERM');
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the service's command line (`node --import tsx server/boot/main.ts …`) on a data dir. */
export function runCli(
  args: string[],
  options: { dataDir: string; env?: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: options.dataDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

function parseJson(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** A raw request with a key, for the error paths the typed client does not reach (bad bodies, methods). */
export function requester(baseUrl: string, key?: string) {
  return (
    method: string,
    pathname: string,
    init: { body?: BodyInit; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${baseUrl}${pathname}`, {
      method,
      body: init.body,
      headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...init.headers },
    });
}

export const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** The ApiError a call fails with (and a failed expectation when it succeeds or fails otherwise). */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
