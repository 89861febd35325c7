/**
 * A person pastes proxies: POST /v1/proxies/paste saves each line once, a line already saved is that proxy again,
 * and no account keeps more saved proxies than its plan allows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let client: (plan: 'free' | 'enterprise') => Promise<ApiClient>;

beforeAll(async () => {
  service = await startServiceInProcess();
  client = async (plan) =>
    createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey(plan), fetch });
});
afterAll(() => service?.close());

const savedCount = async (api: ApiClient) => (await api.listProxies({ limit: 100 })).data.length;

describe('pasting proxies', () => {
  it('saves each new line once, reuses one already saved, refuses what is no proxy, and counts each', async () => {
    const api = await client('enterprise');
    const saved = await api.createProxy({
      scheme: 'http',
      host: 'saved.example',
      port: 80,
      username: 'u',
      password: 'p',
    });
    const lines = [
      'a:pass-word@one.example:1',
      'two.example:2',
      'http://a:pass-word@ONE.example:1',
      'u:p@saved.example:80',
      'not a proxy',
    ];
    const answer = await api.pasteProxies(lines);
    expect(answer).toMatchObject({ added: 2, known: 2, refused: 1 });
    expect(answer.items[0]).toEqual({
      ok: true,
      id: expect.stringMatching(/^prx_/),
      name: 'a@one.example:1',
      known: false,
    });
    expect(answer.items[2]).toMatchObject({ ok: true, id: answer.items[0]?.id, known: true });
    expect(answer.items[3]).toEqual({ ok: true, id: saved.id, name: saved.name, known: true });
    expect(answer.items[4]).toMatchObject({
      ok: false,
      problem: { status: 422, detail: expect.stringMatching(/^Not a proxy: must be host:port/) },
    });
    // A hyphen, which no id holds: a random id may well contain "pw".
    expect(JSON.stringify(answer)).not.toContain('pass-word');

    const again = await api.pasteProxies(lines.slice(0, 2));
    expect(again).toMatchObject({ added: 0, known: 2, refused: 0 });
    expect(await savedCount(api)).toBe(3);
    // Another password is another proxy.
    expect((await api.pasteProxies(['a:other@one.example:1'])).added).toBe(1);
  });

  it('keeps a Free account to 1,000 saved proxies, by paste, by one, and by a bulk paste', async () => {
    const api = await client('free');
    const thousand = Array.from({ length: 1_000 }, (_, n) => `cap.example:${n + 1}`);
    expect((await api.pasteProxies(thousand)).added).toBe(1_000);
    expect((await api.pasteProxies(thousand.slice(0, 10))).known).toBe(10);
    const refused = await apiError(api.pasteProxies(['cap.example:1001', 'cap.example:1']));
    expect(refused.status).toBe(409);
    expect(refused.code).toBe('proxy_limit');
    expect(refused.message).toContain(
      'The free plan keeps at most 1,000 saved proxies; this account has 1,000, so 0 more fit, not 1.',
    );
    expect((await apiError(api.createProxy({ scheme: 'http', host: 'one.more', port: 1 }))).code).toBe(
      'proxy_limit',
    );
    const profile = await api.createProfile({ name: 'Capped' });
    const bulk = await apiError(
      api.bulkProfiles({ select: { ids: [profile.id] }, action: 'set_proxy', proxies: ['fresh.example:1'] }),
    );
    expect(bulk.code).toBe('proxy_limit');
    expect((await api.getProfile(profile.id)).proxy).toBeNull();
    // A line already saved still fits.
    const reused = await api.bulkProfiles({
      select: { ids: [profile.id] },
      action: 'set_proxy',
      proxies: ['cap.example:7'],
    });
    expect(reused).toMatchObject({ succeeded: 1, proxies_created: 0 });
  });
});
