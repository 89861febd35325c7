/**
 * A cookie import into a stopped profile against what it cannot go below, side by side in one run:
 * `PUT /v1/profiles/:id/cookies` and `GET` on a stopped profile (the service starts a browser for them and stops it)
 * against a bare session's start and stop through the API, and that against raw Chromium's start and stop; each
 * without saving the profile's browser data after the stop (one process on PGlite) and with it (`saved`: on a
 * throwaway PostgreSQL, as a cluster does, or without one installed on PGlite with PROFILE_STATE_MAX_BYTES).
 * Then where a PUT's time goes: the browser's launch, the cookies written over DevTools, its stop and the packing
 * of its folder for the save, each timed in this process on a browser for cookies only beside one launched as a
 * session's; the rest (database, identity, HTTP) is the PUT less those. Each profile first holds PROFILE_MB of a
 * site's data (IndexedDB, written by a run), which its saves carry. With BASELINE, another checkout's services
 * (e.g. main's) take turns with this one's, so that before and after come from one run.
 * Run: npm run bench:cookies   Settings: COOKIE_ROUNDS (5), COOKIES (50), PROFILE_MB (8), BASELINE (a checkout
 * with its node_modules).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import { once } from 'node:events';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type ApiClient, createClient } from '../../lib/api/client';
import type { Cookie } from '../../lib/api/schemas/cookies';
import { writeBrowserCookies } from '../../server/cookies/browser-cookies';
import { profileDataDir } from '../../server/core/data-dir';
import { EgressPolicy } from '../../server/core/egress-policy';
import { generateIdentity } from '../../server/identity/generate';
import { launchFingerprint, presentIdentity } from '../../server/identity/presented';
import { launchBrowser } from '../../server/sessions/launch-browser';
import { packFiles } from '../../server/sessions/profile-archive';
import { profileFiles } from '../../server/sessions/profile-files';
import { type ServiceHandle, startService } from '../support/harness';
import { findPostgresBin, startPostgres } from '../support/postgres-server';
import { median } from './support/load';
import { chromePathForBench, closeRaw, launchRaw } from './support/raw-chromium';

const rounds = Number(process.env.COOKIE_ROUNDS ?? 5);
const cookieCount = Number(process.env.COOKIES ?? 50);
const profileMb = Number(process.env.PROFILE_MB ?? 8);
const SAVED_BYTES = String(50 * 2 ** 20);
const chromePath = chromePathForBench();

const inADay = Math.floor(Date.now() / 1000) + 86_400;
const cookies: Cookie[] = Array.from({ length: cookieCount }, (_, index) => ({
  name: `c${index}`,
  value: `value-${index}-${'x'.repeat(40)}`,
  domain: index % 2 === 0 ? `.site${index % 7}.example` : '127.0.0.1',
  path: '/',
  expires: inADay,
  secure: false,
  http_only: index % 3 === 0,
  same_site: 'Lax',
}));

const site = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Site</title>');
});
site.listen(0, '127.0.0.1');
await once(site, 'listening');
const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
/** PROFILE_MB of rows of text, as a site keeps its data, into the page's IndexedDB. */
const FILL = `new Promise((done, fail) => {
  const open = indexedDB.open('bench', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('rows');
  open.onsuccess = () => {
    const tx = open.result.transaction('rows', 'readwrite');
    for (let row = 0; row < ${profileMb * 64}; row++) {
      let text = '';
      while (text.length < 16384) text += 'row ' + row + ' item ' + Math.random().toString(36).slice(2, 10) + '; ';
      tx.objectStore('rows').put(text.slice(0, 16384), row);
    }
    tx.oncomplete = () => done(true);
    tx.onerror = () => fail(tx.error);
  };
})`;

const postgresBin = findPostgresBin();
const postgres = postgresBin ? await startPostgres(postgresBin, { durable: true }) : null;
let databases = 0;

/** What a service that saves profile data runs with: a database of its own on PostgreSQL, or PGlite told to save. */
async function savingEnv(): Promise<Record<string, string>> {
  if (!postgres) return { PROFILE_STATE_MAX_BYTES: SAVED_BYTES };
  const name = `bench_${++databases}`;
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  return { DATABASE_URL: postgres.url.replace(/\/postgres$/, `/${name}`) };
}

/** One service, this checkout's or the baseline's, saving profile data or not; `name` ends its figures' names. */
interface Target {
  name: string;
  service: ServiceHandle;
  client: ApiClient;
  profileId: string;
}

/** `checkout` is '' for this checkout. */
async function target(checkout: string, root: string | undefined, saved: boolean): Promise<Target> {
  const env = { EGRESS_ALLOW: 'loopback', ...(saved ? await savingEnv() : {}) };
  const service = await startService({ root, env });
  const client = createClient({
    baseUrl: service.baseUrl,
    apiKey: await service.createKey('enterprise', 'bench'),
    fetch,
  });
  const profile = await client.createProfile({ name: 'Cookie bench' });
  if (profileMb > 0) {
    const queued = await client.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'goto', url: siteUrl },
          { action: 'evaluate', expression: FILL },
        ],
      },
    });
    let run = queued;
    while (run.status === 'queued' || run.status === 'running')
      run = await client.getRun(queued.id, { wait: 25, until: 'finished' });
    if (run.status !== 'succeeded') throw new Error(`the site's data was not written: ${run.error}`);
  }
  return { name: `${saved ? ', saved' : ''}${checkout}`, service, client, profileId: profile.id };
}

const figures = new Map<string, number[]>();
const note = (name: string, ms: number) => figures.set(name, [...(figures.get(name) ?? []), ms]);
const figure = (name: string) => median(figures.get(name) ?? []);

async function timed<T>(action: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await action();
  return [performance.now() - started, result];
}

async function apiRound({ name, client, profileId }: Target): Promise<void> {
  note(
    `session start + stop${name}`,
    (
      await timed(async () => {
        const session = await client.startSession({ profile_id: profileId, headless: true });
        await client.stopSession({ session_id: session.id });
      })
    )[0],
  );
  const [put, answer] = await timed(() => client.putProfileCookies(profileId, cookies));
  if (answer.imported !== cookieCount) throw new Error(`PUT${name}: ${answer.imported} cookies imported`);
  note(`PUT${name}`, put);
  const [get, jar] = await timed(() => client.getProfileCookies(profileId));
  if (jar.length < cookieCount) throw new Error(`GET${name}: ${jar.length} cookies read back`);
  note(`GET${name}`, get);
}

/** Each browser on a folder of its own, kept from round to round as a profile's is. */
const folders = { raw: '', session: '', cookies: '' };

/**
 * The parts of a stopped profile's import as the service runs them, timed one by one: on a browser launched as a
 * session's (as the import did before `cookiesOnly`) and on one launched for cookies only, beside raw Chromium.
 */
async function partsRound(): Promise<void> {
  const [rawStart, raw] = await timed(() => launchRaw(chromePath, folders.raw));
  note('raw start', rawStart);
  note('raw stop', (await timed(() => closeRaw(raw)))[0]);
  const identity = presentIdentity(generateIdentity(), {}, null);
  for (const kind of ['as a session', 'cookies only'] as const) {
    const folder = kind === 'cookies only' ? folders.cookies : folders.session;
    const [launch, browser] = await timed(() =>
      launchBrowser({
        chromePath,
        userDataDir: folder,
        headless: true,
        proxy: null,
        fingerprint: launchFingerprint(identity),
        identity,
        egress: EgressPolicy.parse('loopback'),
        cookiesOnly: kind === 'cookies only',
      }),
    );
    note(`browser launch, ${kind}`, launch);
    note(
      `cookies written, ${kind}`,
      (await timed(() => writeBrowserCookies(browser.devtools, cookies, false)))[0],
    );
    note(`browser stop, ${kind}`, (await timed(() => browser.stop()))[0]);
    const [pack, archive] = await timed(async () => {
      const files = await profileFiles(folder);
      note(`files, ${kind}`, files.length);
      return packFiles(
        folder,
        files.map((file) => file.path),
        Number(SAVED_BYTES),
      );
    });
    note(`folder packed, ${kind}`, pack);
    note(`archive, ${kind}`, archive.length);
  }
}

const ms = (value: number) => `${value.toFixed(0).padStart(6)} ms`;
/** A figure, and beside it its baseline with the ratio between them. */
const row = (label: string, value: number, baselineLabel?: string, baseline?: number) =>
  `${label.padEnd(44)} ${ms(value)}` +
  (baselineLabel === undefined || baseline === undefined
    ? ''
    : `   ${baselineLabel.padEnd(38)} ${ms(baseline)}   ×${(value / baseline).toFixed(2)}`);
const compare = (name: string, baselineName: string) =>
  row(name, figure(name), baselineName, figure(baselineName));

const targets: Target[] = [];
const folderRoot = await mkdtemp(path.join(tmpdir(), 'pp-bench-cookies-'));
try {
  for (const saved of [false, true]) {
    if (process.env.BASELINE) targets.push(await target(' (baseline)', process.env.BASELINE, saved));
    targets.push(await target('', undefined, saved));
  }
  // The browsers of this process get copies of a profile that holds the site's data.
  const filled = targets.find(({ name }) => name === '') as Target;
  for (const kind of ['raw', 'session', 'cookies'] as const) {
    folders[kind] = path.join(folderRoot, kind);
    await cp(profileDataDir(filled.service.dataDir, filled.profileId), folders[kind], { recursive: true });
  }
  // A first round uncounted: each process's first browser also starts its relay thread.
  for (let round = -1; round < rounds; round++) {
    if (round === 0) figures.clear();
    await partsRound();
    for (const each of targets) await apiRound(each);
  }
} finally {
  await Promise.all(targets.map(({ service }) => service.close()));
  await rm(folderRoot, { recursive: true, force: true });
  await postgres?.stop();
  site.close();
}

note('raw start + stop', figure('raw start') + figure('raw stop'));
console.log(
  `\ncookie import into a stopped profile (${cookieCount} cookies, ${profileMb} MB of site data), median of ${rounds} interleaved rounds`,
);
console.log(`saved: the profile's data saved after each stop, ${postgres ? 'on PostgreSQL' : 'on PGlite'}`);
for (const { name } of targets) {
  console.log(compare(`PUT${name}`, `session start + stop${name}`));
  console.log(compare(`GET${name}`, `session start + stop${name}`));
  console.log(compare(`session start + stop${name}`, 'raw start + stop'));
}
if (process.env.BASELINE) {
  console.log('\nthis checkout against the baseline');
  for (const saved of ['', ', saved'])
    for (const request of ['PUT', 'GET', 'session start + stop'])
      console.log(compare(`${request}${saved}`, `${request}${saved} (baseline)`));
}
console.log(
  '\nwhere a PUT on a stopped profile goes: its parts, timed in this process, on a browser for cookies only',
);
console.log('beside one launched as a session (as before cookiesOnly), and that beside raw Chromium');
for (const part of ['browser launch', 'cookies written', 'browser stop', 'folder packed']) {
  console.log(compare(`${part}, cookies only`, `${part}, as a session`));
  if (part === 'browser launch') console.log(compare(`${part}, as a session`, 'raw start'));
  if (part === 'browser stop') console.log(compare(`${part}, as a session`, 'raw stop'));
}
const packed = (kind: string) =>
  `${figure(`files, ${kind}`).toFixed(0)} files, ${(figure(`archive, ${kind}`) / 1024).toFixed(0)} KiB`;
console.log(
  `  (packed for the save when saved: ${packed('cookies only')}, as a session ${packed('as a session')})`,
);
const parts = ['browser launch', 'cookies written', 'browser stop'].reduce(
  (sum, part) => sum + figure(`${part}, cookies only`),
  0,
);
console.log(row('the rest of a PUT: database, identity, HTTP', figure('PUT') - parts));
