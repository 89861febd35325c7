/**
 * The proxy list as someone with many proxies reads it: how many profiles use each (counted by the service), a
 * search over name and user@host:port, only the failing ones (by their last check, kept by the service), and none
 * of it crossing into another account; Check all over every saved proxy as a job, and failing proxies replaced on
 * every profile that uses them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { ProxyCheckJob } from '../../../lib/api/schemas/proxy-fleet';
import { startAuthenticatingProxy } from '../../support/browser-fixtures';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let checkAddress: Server;
let api: ApiClient;

/** A port on which nothing listens (it did a moment ago): a proxy there fails its check at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const client = async () =>
  createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });

beforeAll(async () => {
  checkAddress = createServer((_request, response) => response.end('{"ip":"203.0.113.7"}'));
  await new Promise<void>((resolve) => checkAddress.listen(0, '127.0.0.1', resolve));
  const checkUrl = `http://127.0.0.1:${(checkAddress.address() as AddressInfo).port}/json`;
  service = await startServiceInProcess({ env: { PROXY_CHECK_URL: checkUrl, EGRESS_ALLOW: 'loopback' } });
  api = await client();
});

afterAll(async () => {
  await service?.close();
  await new Promise((resolve) => checkAddress?.close(resolve));
});

describe('GET /v1/proxies', () => {
  it('says how many profiles use each proxy, this account’s only', async () => {
    const shared = await api.createProxy({
      scheme: 'http',
      host: 'gate.example',
      port: 8080,
      username: 'ann',
    });
    const unused = await api.createProxy({
      scheme: 'http',
      host: 'gate.example',
      port: 8080,
      username: 'bob',
    });
    for (const name of ['A', 'B', 'C']) await api.createProfile({ name, proxy_id: shared.id });
    // Another account's profiles never count, nor can they point at this account's proxy.
    const stranger = await client();
    await stranger.createProfile({ name: 'Theirs', proxy: 'http://ann@gate.example:8080' });

    const listed = await api.listProxies();
    const usedBy = Object.fromEntries(listed.data.map((proxy) => [proxy.name, proxy.used_by]));
    expect(usedBy).toEqual({ 'ann@gate.example:8080': 3, 'bob@gate.example:8080': 0 });
    expect((await api.getProxy(shared.id)).used_by).toBe(3);
    expect((await api.getProxy(unused.id)).last_check).toBeNull();
  });

  it('finds proxies by name or by user@host:port, case insensitive, with LIKE signs taken literally', async () => {
    const own = await client();
    await own.createProxy({
      name: 'Berlin 1',
      scheme: 'socks5',
      host: 'de.example',
      port: 1080,
      username: 'x',
    });
    await own.createProxy({ name: 'Paris 100%', scheme: 'http', host: 'fr.example', port: 3128 });
    const names = async (q: string) => (await own.listProxies({ q })).data.map(({ name }) => name);
    expect(await names('berlin')).toEqual(['Berlin 1']);
    expect(await names('X@DE.example:1080')).toEqual(['Berlin 1']);
    expect(await names('fr.example:3128')).toEqual(['Paris 100%']);
    expect(await names('100%')).toEqual(['Paris 100%']);
    expect(await names('0%')).toEqual(['Paris 100%']);
    expect(await names('_')).toEqual([]);
    expect((await (await client()).listProxies({ q: 'berlin' })).data).toEqual([]);
  });

  it('lists only the failing proxies with status=failing, from the last check the service kept', async () => {
    const own = await client();
    const broken = await own.createProxy({
      name: 'Broken',
      scheme: 'http',
      host: '127.0.0.1',
      port: await closedPort(),
    });
    const unchecked = await own.createProxy({
      name: 'Unchecked',
      scheme: 'http',
      host: '127.0.0.1',
      port: 9,
    });
    expect((await own.listProxies({ status: 'failing' })).data).toEqual([]);

    const check = await own.checkProxy(broken.id);
    expect(check.ok).toBe(false);
    const failing = await own.listProxies({ status: 'failing' });
    expect(failing.data.map(({ name }) => name)).toEqual(['Broken']);
    expect(failing.data[0]?.last_check).toMatchObject({ ok: false, reason: check.reason });
    expect(Date.parse(failing.data[0]?.last_check?.checked_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect((await own.getProxy(unchecked.id)).last_check).toBeNull();
    // A stranger sees none of it, and cannot check (nor so record a check on) this account's proxy.
    const stranger = await client();
    expect((await stranger.listProxies({ status: 'failing' })).data).toEqual([]);
    await expect(stranger.checkProxy(unchecked.id)).rejects.toMatchObject({ status: 404 });
    expect((await own.getProxy(unchecked.id)).last_check).toBeNull();
  });

  it('refuses a status it does not know, saying which it takes', async () => {
    const answer = await fetch(`${service.baseUrl}/v1/proxies?status=slow`, {
      headers: { Authorization: `Bearer ${await service.createKey('free')}` },
    });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(await answer.json())).toContain('failing');
  });
});

describe('Check all: POST /v1/proxies/checks', () => {
  it('checks every saved proxy, not a page of them, counting how far it is and how many fail', async () => {
    const own = await client();
    const relay = await startAuthenticatingProxy('carol', 'right-pass');
    try {
      // 120 saved: more than a page of the list. One works; the others' passwords are refused (407).
      const lines = Array.from({ length: 120 }, (_, n) =>
        n === 57 ? `127.0.0.1:${relay.port}:carol:right-pass` : `127.0.0.1:${relay.port}:carol:wrong-${n}`,
      );
      await own.pasteProxies(lines);
      const job = await own.checkAllProxies();
      expect(job).toMatchObject({ state: 'running', total: 120 });
      // Asked again while it runs, the same job answers: no second check of everything.
      expect((await own.checkAllProxies()).id).toBe(job.id);
      let now: ProxyCheckJob = job;
      while (now.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await own.getProxyCheckJob(job.id);
      }
      expect(now).toMatchObject({ state: 'done', total: 120, checked: 120, failing: 119 });
      expect(now.finished_at).not.toBeNull();
      const first = await own.listProxies({ status: 'failing', limit: 100 });
      const rest = await own.listProxies({ status: 'failing', limit: 100, cursor: first.next_cursor ?? '' });
      expect(first.data.length + rest.data.length).toBe(119);
      const page = (await own.listProxies({ limit: 100 })).data;
      expect(page.every(({ last_check }) => last_check)).toBe(true);
      // A profile row shows whether its proxy works, whether or not the proxy is among those a client loaded.
      const dead = page.find(({ last_check }) => last_check?.ok === false);
      const onDead = await own.createProfile({ name: 'On dead', proxy_id: dead?.id as string });
      expect((await own.getProfile(onDead.id)).proxy_works).toBe(false);
      expect((await own.listProfiles({ q: 'On dead' })).data[0]?.proxy_works).toBe(false);
      const unchecked = await own.createProfile({ name: 'Own proxy', proxy: 'http://own.example:1' });
      expect((await own.getProfile(unchecked.id)).proxy_works).toBeUndefined();
      // A stranger cannot read the job.
      expect((await apiError((await client()).getProxyCheckJob(job.id))).status).toBe(404);
    } finally {
      await relay.close();
    }
  });
});

describe('POST /v1/proxies/replace', () => {
  it('points every profile on a failing proxy at its replacement, this account’s only', async () => {
    const own = await client();
    const saved = async (name: string) =>
      own.createProxy({ name, scheme: 'http', host: `${name.toLowerCase()}.example`, port: 8080 });
    const [dead, slow, fresh, spare] = [
      await saved('Dead'),
      await saved('Slow'),
      await saved('Fresh'),
      await saved('Spare'),
    ];
    const onDead = [];
    for (const name of ['A', 'B', 'C']) onDead.push(await own.createProfile({ name, proxy_id: dead.id }));
    const onSlow = await own.createProfile({ name: 'D', proxy_id: slow.id });
    const elsewhere = await own.createProfile({ name: 'E', proxy_id: spare.id });

    const answer = await own.replaceProxies({
      replacements: [
        { from: dead.id, to: fresh.id },
        { from: slow.id, to: spare.id },
      ],
    });
    expect(answer).toEqual({
      profiles: 4,
      replaced: [
        { from: dead.id, to: fresh.id, profiles: 3 },
        { from: slow.id, to: spare.id, profiles: 1 },
      ],
    });
    for (const profile of onDead) expect((await own.getProfile(profile.id)).proxy_id).toBe(fresh.id);
    expect((await own.getProfile(onSlow.id)).proxy_id).toBe(spare.id);
    expect((await own.getProfile(elsewhere.id)).proxy_id).toBe(spare.id);
    expect((await own.getProxy(dead.id)).used_by).toBe(0);

    // Another account's proxy is not found, on either side, and nothing changes.
    const stranger = await client();
    const theirs = await stranger.createProxy({ scheme: 'http', host: 'theirs.example', port: 1 });
    for (const replacements of [[{ from: fresh.id, to: theirs.id }], [{ from: theirs.id, to: fresh.id }]]) {
      expect((await apiError(own.replaceProxies({ replacements }))).status).toBe(404);
    }
    expect((await own.getProxy(fresh.id)).used_by).toBe(3);
    // A proxy replaced twice, or by itself, is refused with the field at fault.
    const twice = await apiError(
      own.replaceProxies({
        replacements: [
          { from: fresh.id, to: spare.id },
          { from: fresh.id, to: dead.id },
        ],
      }),
    );
    expect([twice.status, twice.detail]).toEqual([422, expect.stringContaining('each proxy once')]);
    expect(
      (await apiError(own.replaceProxies({ replacements: [{ from: fresh.id, to: fresh.id }] }))).status,
    ).toBe(422);
  });
});
