import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { ProfileSortName } from '../../../lib/api/profile-sorts';
import { createApp } from '../../../server/boot/app';
import { wireService } from '../../../server/boot/wiring';
import { systemClock } from '../../../server/core/clock';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import { createAccountWithKey } from '../../../server/store/accounts';
import { insertStartingSession } from '../../../server/store/sessions';
import { apiError } from '../../support/harness';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/* GET /v1/profiles in each order, searched and paged, against the app in this process on a database of its own. */

let scratch: ScratchDatabase;
let api: ApiClient;
let appFetch: typeof fetch;
let ownerKey: string;
let savedProxyId: string;
const names: Record<string, string> = {};

beforeAll(async () => {
  scratch = await openScratchDatabase('profile-list-order');
  const { db } = scratch;
  const log = createLogger({ write: () => {} });
  const config = loadConfig({ DATA_DIR: scratch.dataDir });
  const app = createApp(
    wireService({ db, config, log, clock: systemClock, lifecycle: createLifecycle(log) }),
  );
  appFetch = (input, init) => Promise.resolve(app.request(input as string, init));
  const { key, account_id: accountId } = await createAccountWithKey(db, systemClock, { plan: 'enterprise' });
  ownerKey = key;
  api = createClient({
    baseUrl: 'http://127.0.0.1',
    apiKey: key,
    fetch: appFetch,
  });
  const saved = await api.createProxy({ scheme: 'http', host: 'gate.example', port: 8080, username: 'ann' });
  savedProxyId = saved.id;
  const made = [
    { name: 'delta', tags: ['team-a'], notes: 'the shop account' },
    { name: 'Alpha', tags: ['team-b'], proxy_id: saved.id },
    { name: 'charlie', tags: ['team-a', 'x'], proxy: 'bob:pw@other.example:3128' },
    { name: 'bravo', tags: [], notes: 'Team-A is not a tag here' },
    { name: 'echo', tags: ['ateam'] },
  ];
  for (const body of made) names[(await api.createProfile(body)).id] = body.name;
  const idOf = (name: string) => Object.keys(names).find((id) => names[id] === name) as string;
  // Used: charlie long ago, Alpha lately; bravo runs (so was used last).
  await db.query(`update profiles set last_used_at = now() - interval '2 days' where id = $1`, [
    idOf('charlie'),
  ]);
  await db.query(`update profiles set last_used_at = now() - interval '1 hour' where id = $1`, [
    idOf('Alpha'),
  ]);
  await insertStartingSession(db, systemClock, {
    accountId,
    holder: { id: 'key_test', name: 'Tester' },
    leaseTtlMs: 30_000,
    profileId: idOf('bravo'),
    headless: true,
    cap: 5,
    nodeId: 'node-1',
  });
});
afterAll(() => scratch?.close());

/** Every page of the list in `sort` order, `limit` at a time, as names. */
async function allPages(query: { sort?: ProfileSortName; q?: string; tag?: string }, limit = 2) {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.listProfiles({ ...query, limit, ...(cursor ? { cursor } : {}) });
    seen.push(...page.data.map((profile) => profile.name));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return seen;
}

describe('GET /v1/profiles in order', () => {
  it.each([
    [undefined, ['echo', 'bravo', 'charlie', 'Alpha', 'delta']],
    ['created', ['echo', 'bravo', 'charlie', 'Alpha', 'delta']],
    ['name', ['Alpha', 'bravo', 'charlie', 'delta', 'echo']],
    ['last_used', ['bravo', 'Alpha', 'charlie', 'echo', 'delta']],
    ['status', ['bravo', 'echo', 'charlie', 'Alpha', 'delta']],
  ] as const)(
    'sort=%s lists every profile once, in order, over pages of 1, 2 and 10',
    async (sort, expected) => {
      for (const limit of [1, 2, 10])
        expect(await allPages(sort ? { sort } : {}, limit), `limit ${limit}`).toEqual(expected);
    },
  );

  it('keeps the order when searching, and a cursor works only in its own order', async () => {
    expect(await allPages({ sort: 'name', q: 'team-a' }, 1)).toEqual(['bravo', 'charlie', 'delta']);
    const page = await api.listProfiles({ sort: 'name', limit: 1 });
    const error = await apiError(api.listProfiles({ sort: 'status', cursor: page.next_cursor as string }));
    expect([error.status, error.detail]).toEqual([
      422,
      'Invalid query: cursor: use the next_cursor of the previous page, in the same sort, as it came.',
    ]);
    expect((await apiError(api.listProfiles({ cursor: page.next_cursor as string }))).status).toBe(422);
  });
});

describe('GET /v1/profiles/tags', () => {
  it('lists every tag with how many profiles carry it, most used first, a page at a time', async () => {
    const first = await api.listProfileTags({ limit: 2 });
    expect(first.data).toEqual([
      { tag: 'team-a', count: 2 },
      { tag: 'ateam', count: 1 },
    ]);
    const rest = await api.listProfileTags({ limit: 2, cursor: first.next_cursor as string });
    expect(rest).toEqual({
      data: [
        { tag: 'team-b', count: 1 },
        { tag: 'x', count: 1 },
      ],
      next_cursor: null,
    });
    expect((await apiError(api.listProfileTags({ cursor: 'nope' }))).status).toBe(422);
  });

  it('shows a key limited to a tag only the tags of the profiles in its scope', async () => {
    const made = await appFetch('http://127.0.0.1/v1/keys', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ownerKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Team A', role: 'viewer', scope: { tags: ['team-a'] } }),
    });
    const { key } = (await made.json()) as { key: string };
    const scoped = createClient({ baseUrl: 'http://127.0.0.1', apiKey: key, fetch: appFetch });
    expect((await scoped.listProfileTags()).data).toEqual([
      { tag: 'team-a', count: 2 },
      { tag: 'x', count: 1 },
    ]);
  });
});

describe('GET /v1/profiles/tags, asked by another account', () => {
  it('lists none of this account’s tags, and counts only its own profiles', async () => {
    const { key } = await createAccountWithKey(scratch.db, systemClock, { plan: 'free' });
    const stranger = createClient({ baseUrl: 'http://127.0.0.1', apiKey: key, fetch: appFetch });
    expect(await stranger.listProfileTags()).toEqual({ data: [], next_cursor: null });
    await stranger.createProfile({ name: 'Mine', tags: ['team-a'] });
    expect((await stranger.listProfileTags()).data).toEqual([{ tag: 'team-a', count: 1 }]);
  });
});

describe('GET /v1/profiles?q=', () => {
  it.each([
    ['#team-a', ['charlie', 'delta']],
    ['#TEAM', ['charlie', 'Alpha', 'delta']],
    ['#x', ['charlie']],
    ['#', []],
    ['team-a', ['bravo', 'charlie', 'delta']],
    ['shop', ['delta']],
    ['ann@gate', ['Alpha']],
    ['gate.example:8080', ['Alpha']],
    ['bob@other', ['charlie']],
    ['pw', []],
    ['Ho', ['delta', 'echo']],
    ['100%', []],
  ])('%s finds the profiles by name, tag, notes or proxy (never its password)', async (q, expected) => {
    expect((await allPages({ q, sort: 'created' }, 10)).reverse().sort()).toEqual([...expected].sort());
    const { total } = await api.listProfiles({ q, total: 'true' });
    expect(total).toBe(expected.length);
  });

  it('finds a profile by its saved proxy as the proxy is now, after a change to it', async () => {
    const changed = {
      name: 'Warehouse',
      scheme: 'http',
      host: 'door.example',
      port: 8081,
      username: 'ann',
    } as const;
    await api.updateProxy(savedProxyId, changed);
    expect(await allPages({ q: 'warehouse' }, 10)).toEqual(['Alpha']);
    expect(await allPages({ q: 'ann@door.example:8081' }, 10)).toEqual(['Alpha']);
    expect(await allPages({ q: 'gate.example' }, 10)).toEqual([]);
    await api.updateProxy(savedProxyId, { ...changed, host: 'gate.example', port: 8080 });
  });
});
