/**
 * POST /v1/profiles/bulk: one action on a selection of profiles (ids, or a filter the service applies), answered
 * per profile, idempotent, bounded, and blind to every other account's profiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { BulkRequestInput } from '../../../lib/api/inputs/bulk';
import type { BulkResult } from '../../../lib/api/schemas/bulk';
import { apiError, JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { seededRandom } from '../../support/seeded-random';
import { testSeed } from '../../support/test-seed';

let service: TestService;
let api: ApiClient;
let stranger: ApiClient;
let key: string;

beforeAll(async () => {
  service = await startServiceInProcess();
  key = await service.createKey('enterprise', 'bulk');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  stranger = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});
afterAll(() => service?.close());

/** `count` new profiles of `client` named `<prefix> n`, with `tags`, oldest first. */
async function profiles(client: ApiClient, prefix: string, count: number, tags: string[] = []) {
  const made = [];
  for (let index = 1; index <= count; index++)
    made.push(await client.createProfile({ name: `${prefix} ${index}`, tags }));
  return made;
}

const bulk = (body: BulkRequestInput, client = api) => client.bulkProfiles(body);

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

describe('bulk actions on a selection', () => {
  it('adds and removes tags on the ids given, answering each in the order given', async () => {
    const random = seededRandom(testSeed());
    const made = await profiles(api, 'Tagged', 5, ['keep']);
    const ids = shuffled(
      made.map(({ id }) => id),
      random,
    );
    const added = await bulk({ select: { ids }, action: 'add_tags', tags: ['team-a', 'keep', 'team-a'] });
    expect(added).toMatchObject({ action: 'add_tags', selected: 5, succeeded: 5, failed: 0 });
    expect(added.items.map(({ id }) => id)).toEqual(ids);
    for (const { id } of made) expect((await api.getProfile(id)).tags).toEqual(['keep', 'team-a']);

    const removed = await bulk({ select: { ids: ids.slice(0, 2) }, action: 'remove_tags', tags: ['keep'] });
    expect(removed).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await api.getProfile(ids[0] as string)).tags).toEqual(['team-a']);
    expect((await api.getProfile(ids[2] as string)).tags).toEqual(['keep', 'team-a']);
  });

  it('refuses a tag too many on the profile it would overfill, and does the others', async () => {
    const [full, room] = await profiles(api, 'Full', 2);
    await api.updateProfile(full?.id as string, { tags: Array.from({ length: 20 }, (_, n) => `t${n}`) });
    const answer = await bulk({
      select: { ids: [full?.id as string, room?.id as string] },
      action: 'add_tags',
      tags: ['x'],
    });
    expect(answer.items).toEqual([
      {
        id: full?.id,
        name: 'Full 1',
        ok: false,
        problem: expect.objectContaining({ status: 422, code: 'validation_failed' }),
      },
      { id: room?.id, name: 'Full 2', ok: true },
    ]);
    expect(answer.items[0]?.problem?.detail).toMatch(/has 20 tags; with these it would have more than 20/);
  });

  it('says each problem once, with how many profiles met it and the first few by name', async () => {
    const tags = Array.from({ length: 20 }, (_, n) => `t${n}`);
    const full = await profiles(api, 'Overfull', 7, tags);
    const unknown = ['prf_unknown1', 'prf_unknown2'];
    const answer = await bulk({
      select: { ids: [unknown[0] as string, ...full.map(({ id }) => id), unknown[1] as string] },
      action: 'add_tags',
      tags: ['x'],
    });
    expect(answer).toMatchObject({ selected: 9, succeeded: 0, failed: 9 });
    expect(answer.problems).toEqual([
      {
        status: 422,
        code: 'validation_failed',
        detail: expect.stringMatching(/has 20 tags; with these it would have more than 20/),
        count: 7,
        profiles: ['Overfull 1', 'Overfull 2', 'Overfull 3', 'Overfull 4', 'Overfull 5'],
        ids: full.slice(0, 5).map(({ id }) => id),
      },
      {
        status: 404,
        code: 'not_found',
        detail: 'There is no profile with this id.',
        count: 2,
        profiles: unknown,
        ids: unknown,
      },
    ]);
    // The items listed are the failures each problem names, in the selection's order; the other 2 are counted.
    expect(answer.items.map(({ id }) => id)).toEqual([
      unknown[0],
      ...full.slice(0, 5).map(({ id }) => id),
      unknown[1],
    ]);
    expect(answer.unlisted).toEqual({
      count: 2,
      detail:
        '2 more failed profiles are not listed in items: each problem says how many met it and names the first 5.',
    });
  });

  it('answers 10,000 unknown ids in one problem, not 10,000 items: a small answer', async () => {
    const ids = Array.from({ length: 10_000 }, (_, n) => `prf_unknown${String(n).padStart(8, '0')}`);
    const response = await fetch(`${service.baseUrl}/v1/profiles/bulk`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${key}` },
      body: JSON.stringify({ select: { ids }, action: 'add_tags', tags: ['x'] }),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThan(20_000);
    const answer = JSON.parse(text) as BulkResult;
    expect(answer).toMatchObject({ selected: 10_000, succeeded: 0, failed: 10_000 });
    expect(answer.problems).toEqual([
      expect.objectContaining({ code: 'not_found', count: 10_000, ids: ids.slice(0, 5) }),
    ]);
    expect(answer.items.map(({ id }) => id)).toEqual(ids.slice(0, 5));
    expect(answer.unlisted?.detail).toMatch(/^9,995 more failed profiles are not listed in items/);
  });

  it('selects by a filter in the database: a tag, #tag in the search, a status', async () => {
    const tagged = await profiles(api, 'Filtered', 3, ['north-7']);
    await profiles(api, 'Unfiltered', 2, ['south-7']);
    const byTag = await bulk({ select: { filter: { tag: 'north-7' } }, action: 'add_tags', tags: ['seen'] });
    // The list's order: newest first.
    expect(byTag.items.map(({ id }) => id)).toEqual(tagged.map(({ id }) => id).reverse());
    const bySearch = await bulk({
      select: { filter: { q: '#nort' } },
      action: 'remove_tags',
      tags: ['seen'],
    });
    expect(bySearch.selected).toBe(3);
    const idle = await bulk({
      select: { filter: { q: 'filtered', status: 'idle' } },
      action: 'add_tags',
      tags: ['idle'],
    });
    expect(idle.selected).toBe(5);
    const none = await bulk({ select: { filter: { tag: 'no-such-tag' } }, action: 'delete' });
    expect(none).toMatchObject({ selected: 0, succeeded: 0, failed: 0, items: [] });
  });

  it('takes the list’s order for a selection by filter, as the person sees it', async () => {
    const made = await profiles(api, 'Sorted', 3, ['sorted-7']);
    for (const [index, name] of ['Sorted a', 'Sorted c', 'Sorted b'].entries())
      await api.updateProfile(made[index]?.id as string, { name });
    const lines = ['sort.example:1', 'sort.example:2', 'sort.example:3'];
    const select = { filter: { tag: 'sorted-7', sort: 'name' as const } };
    const answer = await bulk({ select, action: 'set_proxy', proxies: lines });
    expect(answer.items.map(({ id }) => id)).toEqual([made[0]?.id, made[2]?.id, made[1]?.id]);
    expect((await api.getProfile(made[0]?.id as string)).proxy).toBe('http://sort.example:1');
  });

  it('points each profile at one saved proxy, clears it, and refuses a proxy that is not the account’s', async () => {
    const made = await profiles(api, 'Proxied', 2);
    const ids = made.map(({ id }) => id);
    const proxy = await api.createProxy({ scheme: 'http', host: 'one.example', port: 3128 });
    const set = await bulk({ select: { ids }, action: 'set_proxy', proxy_id: proxy.id });
    expect(set.items).toEqual(made.map(({ id, name }) => ({ id, name, ok: true, proxy_id: proxy.id })));
    expect((await api.getProfile(ids[1] as string)).proxy).toBe('http://one.example:3128');

    const theirs = await stranger.createProxy({ scheme: 'http', host: 'theirs.example', port: 3128 });
    const refused = await apiError(bulk({ select: { ids }, action: 'set_proxy', proxy_id: theirs.id }));
    expect(refused.status).toBe(422);
    expect(refused.fieldErrors).toEqual([{ path: 'proxy_id', message: 'is not one of your saved proxies' }]);

    const cleared = await bulk({ select: { ids }, action: 'clear_proxy' });
    expect(cleared.succeeded).toBe(2);
    expect((await api.getProfile(ids[0] as string)).proxy).toBeNull();
  });

  it('gives each profile the proxy of its line of a pasted list, saving those the account lacks', async () => {
    const made = await profiles(api, 'Pasted', 4);
    const ids = made.map(({ id }) => id);
    const known = await api.createProxy({
      scheme: 'socks5',
      host: 'known.example',
      port: 1080,
      username: 'u',
      password: 'p',
    });
    const lines = [
      'amy:secret@gate.example:8000',
      'socks5://u:p@known.example:1080',
      'gate.example:8001:bob:pw:with:colons',
      'amy:secret@gate.example:8000',
    ];
    const answer = await bulk({ select: { ids }, action: 'set_proxy', proxies: lines });
    expect(answer).toMatchObject({ succeeded: 4, proxies_created: 2 });
    const [first, second, third, fourth] = answer.items.map((item) => item.proxy_id);
    expect(second).toBe(known.id);
    expect(fourth).toBe(first);
    expect(new Set([first, second, third]).size).toBe(3);
    expect((await api.getProfile(ids[2] as string)).proxy).toBe('http://bob@gate.example:8001');
    const saved = await api.getProxy(first as string);
    expect(saved).toMatchObject({ name: 'amy@gate.example:8000', has_password: true });
    expect(JSON.stringify(answer)).not.toContain('secret');
    // The same paste again finds every profile pointing there already: each answered, none written again.
    const before = (await api.getProfile(ids[0] as string)).updated_at;
    const again = await bulk({ select: { ids }, action: 'set_proxy', proxies: lines });
    expect(again).toMatchObject({ succeeded: 4, proxies_created: 0 });
    expect(again.items.map((item) => item.proxy_id)).toEqual([first, second, third, fourth]);
    expect((await api.getProfile(ids[0] as string)).updated_at).toBe(before);

    const uneven = await apiError(bulk({ select: { ids }, action: 'set_proxy', proxies: lines.slice(1) }));
    expect(uneven.status).toBe(422);
    expect(uneven.message).toContain('4 profiles are selected but 3 proxies were given');
    const broken = await apiError(
      bulk({ select: { ids: ids.slice(0, 1) }, action: 'set_proxy', proxies: ['not a proxy'] }),
    );
    expect(broken.fieldErrors[0]?.path).toBe('proxies[0]');
  });

  it('deletes, stops and exports cookies per profile, each answered', async () => {
    const [idle, gone] = await profiles(api, 'Each', 2);
    const ids = [idle?.id as string, gone?.id as string];
    const stopped = await bulk({ select: { ids }, action: 'stop' });
    // Each answered by the profile's name, not only its id.
    expect(stopped.items).toEqual([
      { id: ids[0], name: 'Each 1', ok: true },
      { id: ids[1], name: 'Each 2', ok: true },
    ]);
    const cookies = await bulk({ select: { ids: ids.slice(0, 1) }, action: 'export_cookies' });
    expect(cookies.items).toEqual([{ id: ids[0], name: 'Each 1', ok: true, cookies: [] }]);
    const deleted = await bulk({ select: { ids: [ids[1] as string] }, action: 'delete' });
    expect(deleted.items).toEqual([{ id: ids[1], name: 'Each 2', ok: true }]);
    expect((await apiError(api.getProfile(ids[1] as string))).status).toBe(404);
    const again = await bulk({ select: { ids }, action: 'delete' });
    expect(again.items[1]).toEqual({
      id: ids[1],
      ok: false,
      problem: { status: 404, code: 'not_found', detail: 'There is no profile with this id.' },
    });
  });

  it('starts and stops the selection, a running one refused a second start', async () => {
    const [one] = await profiles(api, 'Started', 1);
    const ids = [one?.id as string];
    const started = await bulk({ select: { ids }, action: 'start', headless: true });
    expect(started.items[0]).toEqual({
      id: ids[0],
      name: 'Started 1',
      ok: true,
      session_id: expect.stringMatching(/^ses_/),
    });
    const twice = await bulk({ select: { ids }, action: 'start', headless: true });
    expect(twice.items[0]).toMatchObject({ ok: false, problem: { status: 409, code: 'session_exists' } });
    const running = await bulk({ select: { filter: { status: 'running' } }, action: 'stop' });
    expect(running.items).toEqual([{ id: ids[0], name: 'Started 1', ok: true }]);
    expect((await api.getProfile(ids[0] as string)).status).toBe('idle');
  }, 60_000);

  it('answers another account’s ids as not found and never touches them', async () => {
    const [mine] = await profiles(api, 'Mine', 1, ['private']);
    const id = mine?.id as string;
    const actions: BulkRequestInput[] = [
      { select: { ids: [id] }, action: 'add_tags', tags: ['theirs'] },
      { select: { ids: [id] }, action: 'remove_tags', tags: ['private'] },
      { select: { ids: [id] }, action: 'set_proxy', proxies: ['stranger.example:3128'] },
      { select: { ids: [id] }, action: 'clear_proxy' },
      { select: { ids: [id] }, action: 'run', script: { steps: [{ action: 'goto', url: 'about:blank' }] } },
      { select: { ids: [id] }, action: 'start' },
      { select: { ids: [id] }, action: 'stop' },
      { select: { ids: [id] }, action: 'delete', force: true },
      { select: { ids: [id] }, action: 'export_cookies' },
    ];
    for (const body of actions) {
      const answer = await bulk(body, stranger);
      expect(answer.items, body.action).toEqual([
        {
          id,
          ok: false,
          problem: { status: 404, code: 'not_found', detail: 'There is no profile with this id.' },
        },
      ]);
    }
    // A filter of theirs never reaches this account's profiles.
    expect(
      (await bulk({ select: { filter: { tag: 'private' } }, action: 'delete' }, stranger)).selected,
    ).toBe(0);
    const after = await api.getProfile(id);
    expect(after).toMatchObject({ tags: ['private'], proxy: null, status: 'idle' });
    expect((await stranger.listProxies()).data.map(({ host }) => host)).not.toContain('stranger.example');
  });

  it('replays a retried request with the same Idempotency-Key instead of doing it again', async () => {
    const made = await profiles(api, 'Once', 2);
    const body = JSON.stringify({
      select: { ids: made.map(({ id }) => id) },
      action: 'set_proxy',
      proxies: ['once.example:1', 'once.example:2'],
    });
    const send = () =>
      requester(service.baseUrl, key)('POST', '/v1/profiles/bulk', {
        headers: { ...JSON_HEADERS, 'Idempotency-Key': 'bulk-once' },
        body,
      });
    const first = await send();
    const firstAnswer = (await first.json()) as BulkResult;
    expect(firstAnswer.proxies_created).toBe(2);
    const second = await send();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(firstAnswer);
    const hosts = (await api.listProxies({ limit: 100 })).data.filter(({ host }) => host === 'once.example');
    expect(hosts).toHaveLength(2);
  });

  it('refuses a selection beyond the action’s most, whole and before doing anything', async () => {
    const made = await profiles(api, 'Bounded', 101, ['bounded']);
    const refused = await apiError(
      bulk({ select: { filter: { tag: 'bounded' } }, action: 'export_cookies' }),
    );
    expect(refused.status).toBe(422);
    expect(refused.message).toContain('more than 100 profiles match this filter');
    const ids = made.map(({ id }) => id);
    const byIds = await apiError(bulk({ select: { ids }, action: 'export_cookies' }));
    expect(byIds.message).toContain(
      '101 profiles are selected, and export_cookies takes at most 100 at once',
    );
    const tooManyIds = await apiError(
      bulk({
        select: { ids: Array.from({ length: 10_001 }, (_, n) => `prf_${n}`) },
        action: 'add_tags',
        tags: ['x'],
      }),
    );
    expect(tooManyIds.fieldErrors[0]).toEqual({
      path: 'select.ids',
      message: 'must name at most 10000 profiles',
    });
    // The same selection is fine for an action that takes more.
    expect(
      (await bulk({ select: { filter: { tag: 'bounded' } }, action: 'add_tags', tags: ['ok'] })).succeeded,
    ).toBe(101);
  }, 60_000);
});
