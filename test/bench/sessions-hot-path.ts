/**
 * Sessions and runs against raw Chromium, side by side in one run: a session's start (to a browser whose DevTools
 * answer) against spawning the same Chromium and asking its pipe `Browser.getVersion`; a stop against
 * `Browser.close` to the process's exit; a three-step run (goto, evaluate, screenshot), from its POST to its
 * result, against the same steps through Playwright's `connectOverCDP` on the session's own `cdp_url`; a browser's
 * launch with a profile's identity put in force against the same launch without one; the list of sessions while one
 * runs (each running session's current page is read from its browser, kept 2 s) against the list of profiles.
 * Run: npm run bench   Settings: SESSION_ROUNDS (5).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { createClient } from '../../lib/api/client';
import type { Step } from '../../lib/api/inputs/automation';
import { EgressPolicy } from '../../server/core/egress-policy';
import { generateIdentity } from '../../server/identity/generate';
import { launchFingerprint, presentIdentity } from '../../server/identity/presented';
import { launchBrowser } from '../../server/sessions/launch-browser';
import { startService } from '../support/harness';
import { median } from './support/load';
import { chromePathForBench, closeRaw, launchRaw, removeRawFolder } from './support/raw-chromium';

const rounds = Number(process.env.SESSION_ROUNDS ?? 5);
const chromePath = chromePathForBench();

const site = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Bench</title><h1>Bench page</h1>');
});
site.listen(0, '127.0.0.1');
await once(site, 'listening');
const pageUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
const steps: Step[] = [
  { action: 'goto', url: pageUrl },
  { action: 'evaluate', expression: 'document.title', name: 'title' },
  { action: 'screenshot', name: 'page' },
];

async function timed<T>(action: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await action();
  return [performance.now() - started, result];
}

/** A launch as the session manager does it, with the profile's identity or without any. */
async function launchTimed(withIdentity: boolean): Promise<number> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pp-bench-identity-'));
  const identity = withIdentity ? presentIdentity(generateIdentity(), {}, null) : null;
  const [ms, browser] = await timed(() =>
    launchBrowser({
      chromePath: chromePath as string,
      userDataDir: folder,
      headless: true,
      proxy: null,
      fingerprint: identity ? launchFingerprint(identity) : {},
      identity,
      egress: EgressPolicy.parse('loopback'),
    }),
  );
  await browser.stop();
  await rm(folder, { recursive: true, force: true });
  return ms;
}

const service = await startService({ env: { EGRESS_ALLOW: 'loopback' } });
const client = createClient({
  baseUrl: service.baseUrl,
  apiKey: await service.createKey('enterprise', 'bench'),
  fetch,
});
const figures = new Map<string, number[]>();
const note = (name: string, ms: number) => figures.set(name, [...(figures.get(name) ?? []), ms]);
try {
  const profile = await client.createProfile({ name: 'Bench' });
  for (let round = 0; round < rounds; round++) {
    const [rawStart, raw] = await timed(() => launchRaw(chromePath));
    note('raw start', rawStart);
    note('raw stop', (await timed(() => closeRaw(raw)))[0]);
    await removeRawFolder(raw);

    const [start, session] = await timed(() =>
      client.startSession({ profile_id: profile.id, headless: true }),
    );
    note('session start', start);

    const [direct] = await timed(async () => {
      const browser = await chromium.connectOverCDP(session.cdp_url as string);
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await page.goto(pageUrl);
      await page.evaluate('document.title');
      await page.screenshot();
      await page.close();
      await browser.close();
    });
    note('steps over connectOverCDP', direct);

    for (let call = 0; call < 5; call++) {
      note('list of sessions, 1 running', (await timed(() => client.listSessions()))[0]);
      note('list of profiles', (await timed(() => client.listProfiles()))[0]);
    }

    const [run, finished] = await timed(async () => {
      let current = await client.runAutomation({ session_id: session.id, script: { steps } });
      while (current.status === 'queued' || current.status === 'running') {
        current = await client.getRun(current.id, { wait: 25, until: 'finished' });
      }
      return current;
    });
    if (finished.status !== 'succeeded') throw new Error(`the bench run ${finished.status}`);
    note('three-step run', run);

    note('session stop', (await timed(() => client.stopSession({ session_id: session.id })))[0]);

    note('launch without identity', await launchTimed(false));
    note('launch with identity', await launchTimed(true));
  }
} finally {
  await service.close();
  site.close();
}

const row = (name: string, baselineName: string) => {
  const value = median(figures.get(name) ?? []);
  const baseline = median(figures.get(baselineName) ?? []);
  return `${name.padEnd(28)} ${value.toFixed(0).padStart(7)} ms   ${baselineName.padEnd(28)} ${baseline.toFixed(0).padStart(7)} ms   ×${(value / baseline).toFixed(2)}`;
};
console.log(`\nsessions and runs, median of ${rounds} interleaved rounds`);
console.log(row('session start', 'raw start'));
console.log(row('session stop', 'raw stop'));
console.log(row('three-step run', 'steps over connectOverCDP'));
console.log(row('launch with identity', 'launch without identity'));
console.log(row('list of sessions, 1 running', 'list of profiles'));
