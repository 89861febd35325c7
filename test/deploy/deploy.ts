/**
 * npm run test:deploy: builds the images, runs deploy/kube/local under `podman kube play`, starts sessions through
 * the published port, drives one from this machine through its cdp_url, stops them, scrapes /metrics, measures the
 * same session starts on this machine beside them, and tears everything down. Not part of npm test: it builds
 * images and takes minutes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { parseAllDocuments, stringify } from 'yaml';
import { PROJECT_ROOT } from '../../server/core/config';
import { startService } from '../support/harness';
import { findPostgresBin, startPostgres } from '../support/postgres-server';

const ORIGIN = 'http://127.0.0.1:18787';
const STARTS = 7;
const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? path.join(PROJECT_ROOT, 'deploy/podman/containers.conf'),
};

function run(
  command: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
) {
  const result = spawnSync(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...env, ...options.env },
    input: options.input,
    stdio: [options.input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

interface KubeObject {
  kind: string;
  metadata: { name: string };
  stringData?: Record<string, string>;
}

/**
 * The overlay as podman takes it. Podman 4.3 stores a Secret given in YAML (in the same file or one of its own) as
 * YAML, and its env lookup then fails with "secret … is not valid JSON" (podman#16269): each Secret is made a podman
 * secret here instead, as the JSON of its base64 values that it reads.
 */
function play(objects: KubeObject[]): void {
  for (const secret of objects.filter((object) => object.kind === 'Secret')) {
    spawnSync('podman', ['secret', 'rm', secret.metadata.name], { env, stdio: 'ignore' });
    const data = Object.fromEntries(
      Object.entries(secret.stringData ?? {}).map(([name, value]) => [
        name,
        Buffer.from(value).toString('base64'),
      ]),
    );
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'pp-secret-')), 'secret.json');
    writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
    try {
      run('podman', ['secret', 'create', secret.metadata.name, file]);
    } finally {
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }
  run('podman', ['kube', 'play', '-'], { input: others(objects) });
}

function tearDown(objects: KubeObject[]): void {
  spawnSync('podman', ['kube', 'down', '-'], {
    env,
    input: others(objects),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  // `podman secret rm` takes no --force (podman 4.3): with it the test's secret was left behind.
  const removals: Record<string, string[]> = {
    Secret: ['secret', 'rm'],
    PersistentVolumeClaim: ['volume', 'rm', '--force'],
  };
  for (const object of objects) {
    const removal = removals[object.kind];
    if (removal) spawnSync('podman', [...removal, object.metadata.name], { env, stdio: 'ignore' });
  }
}

const others = (objects: KubeObject[]) =>
  objects
    .filter((object) => object.kind !== 'Secret')
    .map((object) => stringify(object))
    .join('---\n');

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
  if (spawnSync('podman', ['--version']).status !== 0)
    throw new Error('npm run test:deploy needs podman (apt-get install podman runc) for podman kube play.');
  run('sh', ['scripts/image.sh']);
  run('sh', ['scripts/image.sh'], {
    env: {
      CONTAINERFILE: 'deploy/kube/local/postgres.Containerfile',
      IMAGE: 'localhost/profile-pilot-postgres:latest',
    },
  });
  const rendered = execFileSync('kubectl', ['kustomize', 'deploy/kube/local'], {
    cwd: PROJECT_ROOT,
  }).toString();
  const objects = parseAllDocuments(rendered).map((document) => document.toJS() as KubeObject);
  const secret = objects.find((object) => object.kind === 'Secret')?.stringData ?? {};
  tearDown(objects);
  try {
    play(objects);
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
    tearDown(objects);
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
