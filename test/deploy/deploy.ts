/**
 * npm run test:deploy: `npm run deploy:local` (builds the images, plays deploy/kube/local), starts sessions through
 * the published port, drives one from this machine through its cdp_url, stops them, scrapes /metrics, measures the
 * same session starts on this machine beside them, and tears everything down (once keeping the database's
 * volume, which the next play takes up again). Not part of npm test: it builds images and takes minutes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../server/core/config';
import { startService } from '../support/harness';
import { findPostgresBin, startPostgres } from '../support/postgres-server';

const ORIGIN = 'http://127.0.0.1:18787';
const STARTS = 7;

/** `npm run deploy:local` with these arguments, as docs/deploy.md tells a person to run it. */
function deployLocal(...args: string[]): void {
  const result = spawnSync('npm', ['run', '--silent', 'deploy:local', '--', ...args], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error(`npm run deploy:local ${args.join(' ')} exited with ${result.status}`);
}

async function eventually(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

type Send = (method: string, pathname: string, body?: unknown) => Promise<Response>;

function sender(origin: string, key: string): Send {
  return (method, pathname, body) =>
    fetch(`${origin}${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** Starts a session of a new profile, drives it when asked, stops it; answers the start's milliseconds. */
async function timeStart(send: Send, name: string, drive: boolean): Promise<number> {
  const profile = await (await send('POST', '/v1/profiles', { name })).json();
  const started = performance.now();
  const response = await send('POST', '/v1/sessions/start', { profile_id: profile.id, headless: true });
  const ms = performance.now() - started;
  const session = await response.json();
  if (response.status !== 201) throw new Error(`a session did not start: ${JSON.stringify(session)}`);
  if (drive) {
    const browser = await chromium.connectOverCDP(session.cdp_url);
    const page = await browser.contexts()[0]?.newPage();
    await page?.goto('data:text/html,<title>Deployed</title><p>driven from the host');
    if ((await page?.title()) !== 'Deployed') throw new Error('the page did not load through cdp_url');
    await browser.close();
    console.log(`drove ${session.id} through ${new URL(session.cdp_url).origin} from the host`);
  }
  const stopped = await send('DELETE', `/v1/sessions/stop?session_id=${session.id}`);
  if (stopped.status !== 200) throw new Error(`a session did not stop: ${await stopped.text()}`);
  return ms;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const secret = parse(
    readFileSync(path.join(PROJECT_ROOT, 'deploy/kube/local/secret.yaml'), 'utf8'),
  ).stringData;
  deployLocal('down', '--volumes');
  try {
    deployLocal();
    await eventually('the service to be ready', 240_000, async () => (await fetch(`${ORIGIN}/readyz`)).ok);
    const container = sender(ORIGIN, secret.BOOTSTRAP_KEY as string);
    await timeStart(container, 'Driven', true);
    const metrics = await (
      await fetch(`${ORIGIN}/metrics`, { headers: { Authorization: `Bearer ${secret.METRICS_TOKEN}` } })
    ).text();
    const counted = /^profile_pilot_session_start_seconds_count (\d+)/m.exec(metrics)?.[1];
    if (counted !== '1') throw new Error(`/metrics counted ${counted} session starts, not 1`);
    console.log(
      `/metrics: ${counted} session start, ${/^profile_pilot_sessions\{state="running"\} (\d+)/m.exec(metrics)?.[1]} running`,
    );

    // Down and up again keeps PostgreSQL's volume, and with it the profiles.
    deployLocal('down');
    deployLocal();
    await eventually(
      'the service to be ready again',
      240_000,
      async () => (await fetch(`${ORIGIN}/readyz`)).ok,
    );
    const kept = await (await container('GET', '/v1/profiles?q=Driven&limit=1')).json();
    if (kept.data?.[0]?.name !== 'Driven') throw new Error('the profile did not outlive down and up');
    console.log("down and up kept the profile in PostgreSQL's volume");

    // The same starts on this machine, on a PostgreSQL of its own as in the pod, taken in turns with the pod's.
    const postgres = await startPostgres(findPostgresBin() as string);
    const host = await startService({ env: { HEADLESS: 'true', DATABASE_URL: postgres.url } });
    const inContainer: number[] = [];
    const onHost: number[] = [];
    try {
      const here = sender(host.baseUrl, await host.createKey('enterprise'));
      for (let n = 0; n < STARTS; n++) {
        inContainer.push(await timeStart(container, `Timed ${n}`, false));
        onHost.push(await timeStart(here, `Timed ${n}`, false));
      }
    } finally {
      await host.close();
      await postgres.stop();
    }
    const ratio = median(inContainer) / median(onHost);
    console.log('session start (ms)     median   each');
    console.log(
      `in the container       ${median(inContainer).toFixed(0).padStart(6)}   ${inContainer.map((ms) => ms.toFixed(0)).join(', ')}`,
    );
    console.log(
      `on this machine        ${median(onHost).toFixed(0).padStart(6)}   ${onHost.map((ms) => ms.toFixed(0)).join(', ')}`,
    );
    console.log(`container / host       ×${ratio.toFixed(2)} (at most ×1.2)`);
    if (ratio > 1.2)
      throw new Error(`a session starts ×${ratio.toFixed(2)} slower in the container than here`);
  } finally {
    deployLocal('down', '--volumes');
  }
  console.log('test:deploy passed');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
