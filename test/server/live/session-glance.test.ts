/**
 * What each session is doing: the session list gives each running session's current page (the tab an agent used
 * last), and GET /v1/sessions/:id/thumbnail a small JPEG of it, to its own account only. Looking does not count
 * as using the session: a polled list does not keep it from stopping as idle.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { connect, httpTransport, ok, servePages, startPageSession } from '../../support/mcp-client';

const IDLE_TIMEOUT_S = 4;

let service: TestService;
let site: Awaited<ReturnType<typeof servePages>>;
let agent: Client;
let api: ApiClient;
let key: string;

beforeAll(async () => {
  site = await servePages((path) =>
    path === '/mirrored'
      ? '<!doctype html><title>Invoice &#x202E;fdp.exe&#x202C; &#x1B;[31mpaid</title>'
      : `<!doctype html><title>Shop ${path}</title><h1>Basket</h1>`,
  );
  service = await startServiceInProcess({
    env: { EGRESS_ALLOW: '127.0.0.1', SESSION_IDLE_TIMEOUT: String(IDLE_TIMEOUT_S) },
  });
  key = await service.createKey('enterprise');
  agent = await connect(httpTransport(service.baseUrl, key));
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
});

afterAll(async () => {
  await agent?.close();
  await service?.close();
  await site?.close();
});

const thumbnail = (id: string, apiKey = key) =>
  fetch(`${service.baseUrl}/v1/sessions/${id}/thumbnail`, { headers: { Authorization: `Bearer ${apiKey}` } });

it('lists the page the agent is on and gives a small picture of it, to the owner only', async () => {
  const { id } = await startPageSession(agent, 'Shop');
  try {
    await ok(agent, 'browser_navigate', { session_id: id, url: `${site.origin}/basket` });
    const { data } = await api.listSessions({ status: 'running' });
    expect(data.find((session) => session.id === id)?.current_page).toEqual({
      title: 'Shop /basket',
      url: `${site.origin}/basket`,
    });
    expect((await api.getSession(id)).current_page?.title).toBe('Shop /basket');
    // A title that reverses what follows it, or colours a terminal, shows as plain words.
    await ok(agent, 'browser_navigate', { session_id: id, url: `${site.origin}/mirrored` });
    const titleSoon = async () => {
      for (let tries = 0; tries < 30; tries++) {
        const title = (await api.getSession(id)).current_page?.title;
        if (title !== 'Shop /basket') return title;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    expect(await titleSoon()).toBe('Invoice fdp.exe [31mpaid');
    await ok(agent, 'browser_navigate', { session_id: id, url: `${site.origin}/basket` });

    const picture = await thumbnail(id);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect(picture.headers.get('cache-control')).toBe('private, max-age=5');
    const bytes = new Uint8Array(await picture.arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0xff, 0xd8]);
    expect(bytes.byteLength).toBeLessThan(60_000);

    // Another account sees neither the session nor its picture.
    const strangerKey = await service.createKey('enterprise');
    const stranger = createClient({ baseUrl: service.baseUrl, apiKey: strangerKey, fetch });
    expect((await stranger.listSessions()).data).toEqual([]);
    const refused = await thumbnail(id, strangerKey);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    expect(await thumbnail('ses_doesnotexist', strangerKey).then((answer) => answer.status)).toBe(404);
  } finally {
    await api.stopSession({ session_id: id });
  }
  const stopped = await thumbnail(id);
  expect(stopped.status).toBe(409);
  expect(((await stopped.json()) as { detail: string }).detail).toMatch(
    /only a running session has a picture/,
  );
  expect((await api.getSession(id)).current_page).toBeNull();
});

it('does not keep a session from stopping as idle while its list and picture are looked at', async () => {
  const profile = await api.createProfile({ name: 'Looked at' });
  const session = await api.startSession({ profile_id: profile.id, headless: true });
  await expect
    .poll(
      async () => {
        await thumbnail(session.id);
        return (await api.listSessions()).data.find((one) => one.id === session.id)?.status;
      },
      { timeout: (IDLE_TIMEOUT_S + 15) * 1000, interval: 1000 },
    )
    .toBe('stopped');
  expect(await api.getSession(session.id)).toMatchObject({ stop_reason: 'idle' });
}, 60_000);
