/**
 * A cookie import into a stopped profile against what it cannot go below, side by side in one run:
 * `PUT /v1/profiles/:id/cookies` and `GET` on a stopped profile (the service starts a browser for them and stops it)
 * against a bare session's start and stop through the API, and that against raw Chromium's start and stop; each
 * without saving the profile's browser data after the stop (one process on PGlite) and with it
 * (PROFILE_STATE_MAX_BYTES, as a cluster on PostgreSQL does). Then where a PUT's time goes: the browser's launch as
 * the service launches it, the cookies written over DevTools, its stop and the packing of its folder for the save,
 * each timed in this process; the rest (database, identity, HTTP) is the PUT less those.
 * With BASELINE, another checkout's services (e.g. main's) take turns with this one's, so that before and after
 * come from one run.
 * Run: npm run bench:cookies   Settings: COOKIE_ROUNDS (5), COOKIES (50), BASELINE (a checkout with its node_modules).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ApiClient, createClient } from '../../lib/api/client';
import type { Cookie } from '../../lib/api/schemas/cookies';
import { writeBrowserCookies } from '../../server/cookies/browser-cookies';
import { EgressPolicy } from '../../server/core/egress-policy';
import { generateIdentity } from '../../server/identity/generate';
import { launchFingerprint, presentIdentity } from '../../server/identity/presented';
import { launchBrowser } from '../../server/sessions/launch-browser';
import type { LaunchOptions } from '../../server/sessions/launch-options';
import { packFiles } from '../../server/sessions/profile-archive';
import { profileFiles } from '../../server/sessions/profile-files';
import { type ServiceHandle, startService } from '../support/harness';
import { median } from './support/load';
import { chromePathForBench, closeRaw, launchRaw, removeRawFolder } from './support/raw-chromium';

const rounds = Number(process.env.COOKIE_ROUNDS ?? 5);
const cookieCount = Number(process.env.COOKIES ?? 50);
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

/** One service: this checkout's or the baseline's, saving profile data after a stop or not; `name` ends each of its figures' names. */
interface Target {
  name: string;
  service: ServiceHandle;
  client: ApiClient;
  profileId: string;
}

/** `checkout` is '' for this checkout. */
async function target(checkout: string, root: string | undefined, saved: boolean): Promise<Target> {
  const env: Record<string, string> = { EGRESS_ALLOW: 'loopback' };
  if (saved) env.PROFILE_STATE_MAX_BYTES = SAVED_BYTES;
  const service = await startService({ root, env });
  const client = createClient({
    baseUrl: service.baseUrl,
    apiKey: await service.createKey('enterprise', 'bench'),
    fetch,
  });
  const profile = await client.createProfile({ name: 'Cookie bench' });
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

/** The parts of a stopped profile's import as the service runs them, timed one by one on a profile folder of its own. */
async function partsRound(folder: string): Promise<void> {
  const [rawStart, raw] = await timed(() => launchRaw(chromePath));
  note('raw start', rawStart);
  note('raw stop', (await timed(() => closeRaw(raw)))[0]);
  await removeRawFolder(raw);

  const identity = presentIdentity(generateIdentity(), {}, null);
  const options: LaunchOptions = {
    chromePath,
    userDataDir: folder,
    headless: true,
    proxy: null,
    fingerprint: launchFingerprint(identity),
    identity,
    egress: EgressPolicy.parse('loopback'),
  };
  const [launch, browser] = await timed(() => launchBrowser(options));
  note('browser launch', launch);
  note('write', (await timed(() => writeBrowserCookies(browser.devtools, cookies, false)))[0]);
  note('browser stop', (await timed(() => browser.stop()))[0]);
  const [pack, archive] = await timed(async () => {
    const files = await profileFiles(folder);
    note('files', files.length);
    return packFiles(
      folder,
      files.map((file) => file.path),
      Number(SAVED_BYTES),
    );
  });
  note('pack', pack);
  note('archive', archive.length);
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
const folder = await mkdtemp(path.join(tmpdir(), 'pp-bench-cookies-'));
try {
  for (const saved of [false, true]) {
    if (process.env.BASELINE) targets.push(await target(' (baseline)', process.env.BASELINE, saved));
    targets.push(await target('', undefined, saved));
  }
  // A first round uncounted: each process's first browser also starts its relay thread.
  for (let round = -1; round < rounds; round++) {
    if (round === 0) figures.clear();
    await partsRound(folder);
    for (const each of targets) await apiRound(each);
  }
} finally {
  await Promise.all(targets.map(({ service }) => service.close()));
  await rm(folder, { recursive: true, force: true });
}

note('raw start + stop', figure('raw start') + figure('raw stop'));
console.log(
  `\ncookie import into a stopped profile (${cookieCount} cookies), median of ${rounds} interleaved rounds`,
);
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
const parts = ['browser launch', 'write', 'browser stop'].reduce((sum, name) => sum + figure(name), 0);
console.log('\nwhere a PUT on a stopped profile goes (this checkout; the parts timed in this process)');
console.log(compare('browser launch', 'raw start'));
console.log(row(`${cookieCount} cookies written over DevTools`, figure('write')));
console.log(compare('browser stop', 'raw stop'));
console.log(
  `${row('folder packed for the save (saved only)', figure('pack'))}   ${figure('files').toFixed(0)} files, ${(figure('archive') / 1024).toFixed(0)} KiB`,
);
console.log(row('the rest (the PUT less these): database, HTTP', figure('PUT') - parts));
