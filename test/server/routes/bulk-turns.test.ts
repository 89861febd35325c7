/**
 * A bulk request's share of the service: it costs the hourly limit one request per 100 profiles it selects, and an
 * account has one under way at a time (the next is answered 429), so that one account's thousands cannot take
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

  it('is one at a time per account: the next one while it runs is refused with 429 and a sentence', async () => {
    const { key } = await accountWith('enterprise', 600, 'many');
    const send = (tag: string) =>
      requester(service.baseUrl, key)('POST', '/v1/profiles/bulk', {
        headers: { ...JSON_HEADERS, 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify({ select: { filter: { tag: 'many' } }, action: 'add_tags', tags: [tag] }),
      });
    const answers = await Promise.all([send('first'), send('second')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
    const refused = answers.find((answer) => answer.status === 429) as Response;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'bulk_busy',
      detail: 'This account’s last bulk request is still being done; send the next one when it has answered.',
    });
    // Once it has answered, the next one is taken.
    expect((await send('third')).status).toBe(200);
  });
});
