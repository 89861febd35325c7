/**
 * `npm start`: the dashboard's pages built (unless built from the same sources already), the service with its data
 * in .data/, a local account and key made on first run (kept in .data/local-key and reused) with a one-time
 * dashboard sign-in link for it, the extension built (likewise), and Chromium opened with it loaded and already
 * connected.
 * Ctrl+C stops everything it started, session browsers included.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { askAdmin } from '../server/admin/channel';
import { signInLinkUrl } from '../server/admin/commands';
import { KEY_PREFIX_LENGTH } from '../server/core/api-keys';
import { ConfigError, loadConfig, PROJECT_ROOT } from '../server/core/config';
import { adminSocketPath, DataDirAccessError, PRIVATE_UMASK, prepareDataDir } from '../server/core/data-dir';
import { buildDashboard } from './dashboard';
import { connectExtension, launchWithExtension } from './extension-browser';
import { DASHBOARD_BUILD, EXTENSION_BUILD, isBuilt } from './fresh';
import { runWxt } from './wxt';

const config = (() => {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
})();
const keyFile = path.join(config.dataDir, 'local-key');
const say = (text: string) => process.stdout.write(`${text}\n`);
/** A path as a person would type it from the project folder. */
const shown = (file: string) => (file.startsWith(PROJECT_ROOT) ? path.relative(PROJECT_ROOT, file) : file);

function fail(message: string): never {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

/** The service as a child process; resolves with its URL once it listens. Its logs go to .data/service.log. */
function startService(): Promise<{ child: ChildProcess; url: string }> {
  // Every account's data is in there: the folder and all in it are the user's alone (0700 folders, 0600 files).
  try {
    prepareDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirAccessError) fail(error.message);
    throw error;
  }
  const log = createWriteStream(path.join(config.dataDir, 'service.log'), { flags: 'a', mode: 0o600 });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'server/boot/main.ts')], {
    cwd: PROJECT_ROOT,
    // A person automates their own local pages too; a hosted service leaves EGRESS_ALLOW empty.
    env: { ...process.env, EGRESS_ALLOW: process.env.EGRESS_ALLOW ?? 'loopback' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      log.write(`${line}\n`);
      if (lines.length < 50) lines.push(line);
      const record = parse(line);
      if (record?.msg === 'listening') resolve({ child, url: String(record.url) });
    });
    child.once('exit', (code) =>
      reject(new Error(`the service exited (${code}) before it was ready:\n${lines.join('\n')}`)),
    );
  });
}

function parse(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The local key: the one made on an earlier run if the service still takes it, else a new one. */
async function localKey(serviceUrl: string): Promise<string> {
  if (existsSync(keyFile)) {
    const saved = readFileSync(keyFile, 'utf8').trim();
    const answer = await fetch(`${serviceUrl}/v1/account`, { headers: { Authorization: `Bearer ${saved}` } });
    if (answer.ok) return saved;
  }
  const key = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(PROJECT_ROOT, 'server/boot/main.ts'),
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--name',
      'local (npm start)',
    ],
    { cwd: PROJECT_ROOT, env: process.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  ).trim();
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  say(`Made a local account; its key is in ${shown(keyFile)}.`);
  return key;
}

function buildExtension(): string {
  if (isBuilt(EXTENSION_BUILD)) say('The extension is built from these sources already.');
  else {
    say('Building the extension…');
    runWxt(['build']);
  }
  return path.join(PROJECT_ROOT, '.output/chrome-mv3');
}

/** A one-time link that signs a browser in to the local account's dashboard (its sessions, usage, keys). */
async function signInLink(serviceUrl: string, key: string): Promise<string> {
  const request = { command: 'sign-in-link', account: key.slice(0, KEY_PREFIX_LENGTH) };
  const { token } = (await askAdmin(adminSocketPath(config.dataDir), request)) as { token: string };
  return signInLinkUrl(serviceUrl, token);
}

if (isBuilt(DASHBOARD_BUILD)) say('The dashboard is built from these sources already.');
else {
  say('Building the dashboard…');
  try {
    buildDashboard();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}
const service = await startService().catch((error: Error) => fail(error.message));
let stopping = false;
const stopService = () =>
  new Promise<void>((resolve) => {
    if (service.child.exitCode !== null) return resolve();
    service.child.once('exit', () => resolve());
    service.child.kill('SIGINT');
  });
service.child.once('exit', (code) => {
  if (!stopping)
    fail(`the service stopped unexpectedly (${code}); see ${path.join(config.dataDir, 'service.log')}`);
});

try {
  const key = await localKey(service.url);
  const extensionDir = buildExtension();
  const headless = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  // From here on (the build is done) what this process and its Chromium create is the user's alone.
  process.umask(PRIVATE_UMASK);
  const userDataDir = path.join(config.dataDir, 'extension-browser');
  const browser = await launchWithExtension({
    extensionDir,
    userDataDir,
    headless,
  });
  await connectExtension(browser.worker, service.url, key);
  const popup = await browser.context.newPage();
  await popup.goto(browser.popupUrl);

  say(`The service runs at ${service.url} (logs: ${shown(path.join(config.dataDir, 'service.log'))}).`);
  say(`Its dashboard, where people sign up and get API keys: ${service.url}/dashboard`);
  // A new link at every start: it works once, within 15 minutes, so a copy left in a terminal's log opens nothing.
  say(`Sign in to it as the local account (once, within 15 minutes): ${await signInLink(service.url, key)}`);
  say(`The extension is loaded from ${shown(extensionDir)} and connected with key ${key.slice(0, 12)}…`);
  if (headless) {
    say('There is no display here, so Chromium runs headless. Set DISPLAY (or run on a desktop) to see it.');
    // The key itself is not printed: this output may end up in shared logs. Its file is the person's alone.
    say(
      `To use the extension in your own Chromium or Chrome: open chrome://extensions, turn on Developer mode, ` +
        `choose Load unpacked and pick ${shown(extensionDir)}; in its popup, use the address ${service.url} ` +
        `and the key in ${shown(keyFile)}.`,
    );
  } else {
    say('Chromium is open with the extension: click its toolbar icon, or use the popup tab.');
  }
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${reason}: stopping the browser and the service…`);
    await browser.close().catch(() => {});
    await stopService();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('Ctrl+C'));
  process.once('SIGTERM', () => void shutdown('Asked to stop'));
  browser.context.once('close', () => void shutdown('The browser was closed'));
  // Only once Ctrl+C is handled: said earlier, a quick Ctrl+C would end this process before it stops the rest.
  say('Press Ctrl+C to stop everything.');
} catch (error) {
  stopping = true;
  await stopService();
  fail(error instanceof Error ? error.message : String(error));
}
