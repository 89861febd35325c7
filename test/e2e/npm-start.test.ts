/**
 * `npm start` as a person runs it: the service, a local key, the built extension in Chromium already
 * connected; Ctrl+C (SIGINT) then stops all of it, session browsers included; the next start reuses the key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../lib/api/client';
import { PROJECT_ROOT } from '../../server/core/config';
import { makeTempDir, openToOthers, processesWithUserDataDir } from '../support/browser-fixtures';
import { dashboardClient } from '../support/dashboard-client';
import { freePort } from '../support/free-port';
import { cleanupStack } from './support/cleanup';
import { processesWithEnvironment } from './support/processes';
import { serviceReader } from './support/service-api';
import { eventually } from './support/wait';

const cleanup = cleanupStack();
let dataDir: string;
let start: ChildProcess;
let output: string[];
let port: number;

/** Everything `npm start` started that still runs: all of it carries its DATA_DIR in its environment. */
const leftRunning = () => processesWithEnvironment('DATA_DIR', dataDir);

function killAll(): void {
  for (const pid of leftRunning()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
}

/** Runs `npm start` (scripts/start.ts) on the test's data dir; resolves once it says it is ready. */
async function npmStart(port: number): Promise<{ child: ChildProcess; output: string[] }> {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'scripts/start.ts')], {
    cwd: PROJECT_ROOT,
    // No display: Chromium and the sessions run headless, as they would on this machine anyway.
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DISPLAY: '', WAYLAND_DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output.push(line);
      if (line.includes('Press Ctrl+C')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => output.push(String(chunk)));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.join('\n')}`)));
  });
  return { child, output };
}

/** Ctrl+C; resolves with the exit code, or the signal that ended it. */
function pressCtrlC(child: ChildProcess): Promise<number | NodeJS.Signals | null> {
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  child.kill('SIGINT');
  return exited;
}

const keyFile = () => path.join(dataDir, 'local-key');
const serviceUrlIn = (lines: string[]) => /The service runs at (\S+) /.exec(lines.join('\n'))?.[1] ?? '';

beforeAll(async () => {
  const folder = cleanup.add(makeTempDir('pp-e2e-start'), (it) => it.remove());
  dataDir = folder.path;
  // As a plain `mkdir` under the usual umask leaves it, with the key file of an earlier run readable by all.
  chmodSync(dataDir, 0o755);
  writeFileSync(path.join(dataDir, 'local-key'), 'pp_live_revokedlongago\n', { mode: 0o644 });
  cleanup.add(null, killAll);
  port = await freePort();
  ({ child: start, output } = await npmStart(port));
});

afterAll(() => cleanup.run());

describe('npm start', () => {
  it('makes a local account, keeps its key in the data dir, and says that Chromium runs headless', () => {
    const said = output.join('\n');
    expect(said).toContain(`Made a local account; its key is in ${keyFile()}.`);
    expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    expect(said).toContain(
      'There is no display here, so Chromium runs headless. Set DISPLAY (or run on a desktop) to see it.',
    );
  });

  it('prints a one-time dashboard sign-in link for the local account, which signs in once', async () => {
    const link = /Sign in to it as the local account \(once, within 15 minutes\): (\S+)/.exec(
      output.join('\n'),
    )?.[1];
    const token = /#\/sign-in\/([\w-]+)$/.exec(link ?? '')?.[1] ?? '';
    expect(link?.startsWith(`${serviceUrlIn(output)}/dashboard/#/sign-in/`)).toBe(true);
    const browser = dashboardClient(serviceUrlIn(output));
    expect(await browser.json('POST', '/sign-in/link', { token })).toMatchObject({
      status: 200,
      body: { email: 'local (npm start)', plan: 'enterprise' },
    });
    // Its dashboard is the local account's: the key npm start made, its usage.
    const key = readFileSync(keyFile(), 'utf8').trim();
    const keys = await browser.json<{ data: { prefix: string }[] }>('GET', '/keys');
    expect(keys.body.data.map(({ prefix }) => prefix)).toContain(key.slice(0, 12));
    expect(
      (await dashboardClient(serviceUrlIn(output)).json('POST', '/sign-in/link', { token })).status,
    ).toBe(401);
    // Neither the link's token nor the key is in the service's log.
    const log = readFileSync(path.join(dataDir, 'service.log'), 'utf8');
    expect(log).not.toContain(token);
    expect(log).not.toContain(key);
  });

  it('connects the extension with the local key: its first request reaches the service', async () => {
    const key = readFileSync(keyFile(), 'utf8').trim();
    const account = await serviceReader(serviceUrlIn(output), key).get<{ id: string }>('/v1/account');
    const sessionsRead = await eventually('the extension’s GET /v1/sessions in the service log', async () =>
      readFileSync(path.join(dataDir, 'service.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((record) => record.msg === 'request' && record.path === '/v1/sessions'),
    );
    expect(sessionsRead).toMatchObject({ method: 'GET', status: 200, account_id: account.id });
  });

  it('keeps the data folder to the user: 0700 folders and 0600 files, the key file and the log included', () => {
    expect((lstatSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((lstatSync(path.join(dataDir, 'local-key')).mode & 0o777).toString(8)).toBe('600');
    expect((lstatSync(path.join(dataDir, 'service.log')).mode & 0o777).toString(8)).toBe('600');
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('stops the service, the browser, session browsers and everything else it started on Ctrl+C', async () => {
    const api = createClient({
      baseUrl: serviceUrlIn(output),
      apiKey: readFileSync(keyFile(), 'utf8').trim(),
      fetch,
    });
    const profile = await api.createProfile({ name: 'Session at Ctrl+C' });
    await api.startSession({ profile_id: profile.id, headless: true });
    const sessionBrowser = path.join(dataDir, 'profiles', profile.id);
    expect(processesWithUserDataDir(sessionBrowser).length).toBeGreaterThan(0);
    const browsers = processesWithUserDataDir(path.join(dataDir, 'extension-browser'));
    expect(browsers.length).toBeGreaterThan(0);
    const before = leftRunning();
    expect(before).toEqual(expect.arrayContaining([start.pid, ...browsers]));
    // start.ts, its service, and Chromium's processes.
    expect(before.length).toBeGreaterThan(browsers.length + 1);

    expect(await pressCtrlC(start)).toBe(0);
    expect(output.join('\n')).toContain('Ctrl+C: stopping the browser and the service…');
    await eventually(
      'every process of npm start to end',
      async () => (leftRunning().length === 0 ? true : undefined),
      10_000,
    );
    expect(processesWithUserDataDir(sessionBrowser)).toEqual([]);
  });

  it('reuses the key in the data dir on the next start', async () => {
    const saved = readFileSync(keyFile(), 'utf8');
    const again = await npmStart(port);
    const said = again.output.join('\n');
    expect(said).not.toContain('Made a local account');
    // Nothing changed since the first start: neither the dashboard nor the extension is built again.
    expect(said).toContain('The dashboard is built from these sources already.');
    expect(said).toContain('The extension is built from these sources already.');
    expect(said).not.toContain('Building');
    expect(said).toContain(`connected with key ${saved.trim().slice(0, 12)}…`);
    // Headless, it says how to load the built extension into one's own browser, and where the key is, not the key.
    expect(said).toMatch(/Load unpacked and pick \S*\.output\/chrome-mv3; .* the key in \S*local-key\./);
    expect(said).not.toContain(saved.trim());
    expect(readFileSync(keyFile(), 'utf8')).toBe(saved);
    expect(await pressCtrlC(again.child), again.output.join('\n')).toBe(0);
  });
});
