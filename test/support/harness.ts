import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { ApiError } from '../../lib/api/errors';
import type { Plan } from '../../lib/api/schemas/account';
import { PROJECT_ROOT } from '../../server/core/config';
import { copyDatabaseTemplate } from './data-dir-template';
import { runKeysInProcess } from './keys-in-process';

const mainOf = (root: string) => path.join(root, 'server', 'boot', 'main.ts');
// Under the hook timeout (vitest.config.ts), so that a service that does not start fails with its logs.
const START_TIMEOUT_MS = 150_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A running service, in this process (in-process-service.ts) or as a child process (ServiceHandle). */
export interface TestService {
  baseUrl: string;
  port: number;
  dataDir: string;
  /** Every log line so far (JSON logs). */
  logs: string[];
  /** Creates an account with a key through the keys command line (run in this process), as an operator would. */
  createKey(plan: Plan, name?: string): Promise<string>;
  /** Runs `keys …` of the command line on this service's data dir (a process runs any arguments). */
  cli(args: string[]): Promise<CliResult>;
  /** Stops the service if it runs and removes the data dir if the harness made it. */
  close(): Promise<void>;
}

/** The service as a child process: for the tests whose subject is the process (signals, restarts, stdio). */
export interface ServiceHandle extends TestService {
  pid: number;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();
/** The log lines of each service child that runs now, by its base URL: what a failed test prints. */
const runningLogs = new Map<string, string[]>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** The last `count` log lines of every service child that runs now, each under its base URL. */
export function recentServiceLogs(count: number): string {
  return [...runningLogs]
    .map(
      ([baseUrl, logs]) =>
        `service at ${baseUrl}, its last ${count} log lines:\n${logs.slice(-count).join('\n')}`,
    )
    .join('\n');
}

/**
 * A new data dir, with the embedded database already made and migrated (data-dir-template.ts); empty for another
 * checkout, whose service makes its own database with its own migrations.
 */
export async function createDataDir(options: { empty?: boolean } = {}): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pp-service-'));
  if (!options.empty) await copyDatabaseTemplate(dataDir);
  return dataDir;
}

/**
 * Starts the real service as a child process (`node --import tsx server/boot/main.ts [args]`) on a free port and a
 * data dir (a new temp dir unless given), and resolves once it logs that it listens. `root` runs another checkout
 * of the project (a bench's baseline) instead of this one.
 */
export async function startService(
  options: { env?: Record<string, string>; dataDir?: string; args?: string[]; root?: string } = {},
): Promise<ServiceHandle> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await createDataDir({ empty: options.root !== undefined }));
  const env = serviceEnv(dataDir, options.env);
  const root = options.root ?? PROJECT_ROOT;
  const child = spawn(process.execPath, ['--import', 'tsx', mainOf(root), ...(options.args ?? [])], {
    cwd: root,
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

  const baseUrl = `http://127.0.0.1:${port}`;
  runningLogs.set(baseUrl, logs);
  void exited.then(() => runningLogs.delete(baseUrl));
  const cli = (args: string[]) => runCli(args, { dataDir, env: options.env, root: options.root });
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    baseUrl,
    port,
    pid: child.pid ?? -1,
    dataDir,
    logs,
    cli,
    // The command itself, in this process: a process of its own would cost a start of its own for each key.
    // Another checkout's keys are made by its own command line, for its own database's tables.
    createKey: keyCreator(
      options.root
        ? cli
        : (args) => runKeysInProcess(args, { ...process.env, DATA_DIR: dataDir, ...options.env }),
    ),
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

/** The environment a test service runs with: loopback, a free port, its data dir, info logs. */
export function serviceEnv(dataDir: string, env?: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env };
}

/** `createKey` over a service's command line: `keys create`, and the key it prints. */
export function keyCreator(cli: (args: string[]) => Promise<CliResult>): TestService['createKey'] {
  return async (plan, name) => {
    const result = await cli(['keys', 'create', '--plan', plan, ...(name ? ['--name', name] : [])]);
    if (result.code !== 0) throw new Error(`keys create failed (${result.code}): ${result.stderr}`);
    return result.stdout.trim();
  };
}

/** Runs the service's command line (`node --import tsx server/boot/main.ts …`) on a data dir; `root` as startService's. */
export function runCli(
  args: string[],
  options: { dataDir: string; env?: Record<string, string>; root?: string },
): Promise<CliResult> {
  const root = options.root ?? PROJECT_ROOT;
  const child = spawn(process.execPath, ['--import', 'tsx', mainOf(root), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: options.dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  return outputOf(child).finally(() => running.delete(child));
}

/** Everything a child process writes to stdout and stderr, and its exit code, once it has closed. */
export function outputOf(child: ChildProcess): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
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
