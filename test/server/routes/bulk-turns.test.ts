/**
 * A bulk request's share of the service: it costs the hourly limit one request per 100 profiles it selects, and an
 * account has one under way at a time (the next ones wait for their turn), so that one account's thousands cannot take
 * turns on the database ahead of everyone else's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service?.close());

async function accountWith(plan: 'free' | 'enterprise', count: number, tag: string) {
  const key = await service.createKey(plan);
  const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  const sheet = ['name,proxy,tags,notes', ...Array.from({ length: count }, (_, n) => `Shop ${n},,${tag},`)];
  await api.importProfiles(`${sheet.join('\n')}\n`, 'csv', { idempotencyKey: crypto.randomUUID() });
  return { key, api };
}

const remaining = async (key: string) =>
  Number((await requester(service.baseUrl, key)('GET', '/v1/account')).headers.get('x-ratelimit-remaining'));

describe('a bulk request', () => {
  it('costs one request of the hour for every 100 profiles it selects', async () => {
    const { key, api } = await accountWith('free', 250, 'shop');
    const before = await remaining(key);
    const done = await api.bulkProfiles({
      select: { filter: { tag: 'shop' } },
      action: 'add_tags',
      tags: ['x'],
    });
    expect(done.succeeded).toBe(250);
    // The bulk request cost 3, and the read after it 1 more.
    expect(await remaining(key)).toBe(before - 1 - 3);
  });

  it('is one at a time per account: the next ones wait for their turn and are done in order', async () => {
    const { key, api } = await accountWith('enterprise', 600, 'many');
    const ended: string[] = [];
    const send = (tag: string) =>
      requester(service.baseUrl, key)('POST', '/v1/profiles/bulk', {
        headers: { ...JSON_HEADERS, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ select: { filter: { tag: 'many' } }, action: 'add_tags', tags: [tag] }),
      }).then((answer) => {
        ended.push(tag);
        return answer.status;
      });
    expect(await Promise.all([send('first'), send('second'), send('third')])).toEqual([200, 200, 200]);
    // Each was answered before the next began: the answers came in the order the tags were added.
    const { data } = await api.listProfiles({ tag: 'many', limit: 1 });
    expect(data[0]?.tags).toEqual(['many', ...ended]);
    expect(ended.sort()).toEqual(['first', 'second', 'third']);
  });

  it("has many requests sent at once answered, in turns, while another account's are answered too", async () => {
    const flooder = requester(service.baseUrl, await service.createKey('enterprise'));
    const other = requester(service.baseUrl, await service.createKey('free'));
    const answers = await Promise.all([
      ...Array.from({ length: 20 }, () => flooder('GET', '/v1/profiles?limit=5')),
      other('GET', '/v1/account'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(21).fill(200));
  });
});
