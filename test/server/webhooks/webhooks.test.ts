import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/*
 * Webhooks against the real service and real receivers on loopback (a service bound to loopback allows them
 * by default): deliveries verified with the Standard Webhooks reference library, retried after a 500 on the
 * schedule (shortened here with WEBHOOK_RETRY_SCHEDULE), the webhook disabled once every try failed, a hanging
 * receiver costing a retry and nobody else anything, and loopback refused where the operator refuses it.
 */

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver that answers each request with what `answer` says, and keeps what it received. */
async function receiver(answer: (count: number) => number | 'hang') {
  const received: Received[] = [];
  const waiting: (() => void)[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      for (const wake of waiting.splice(0)) wake();
      const status = answer(received.length);
      if (status !== 'hang') response.writeHead(status).end(status === 200 ? 'thanks' : 'broken');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once `count` requests have arrived. */
    async until(count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let service: TestService;
const receivers: { close(): Promise<void> }[] = [];

async function account() {
  const key = await service.createKey('premium');
  const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  return { key, api, call };
}

async function newReceiver(answer: (count: number) => number | 'hang') {
  const made = await receiver(answer);
  receivers.push(made);
  return made;
}

/** The webhook's deliveries once `done` holds for them, read again as each attempt is recorded. */
async function deliveriesWhen(
  call: Awaited<ReturnType<typeof account>>['call'],
  webhookId: string,
  done: (deliveries: Record<string, unknown>[]) => boolean,
): Promise<Record<string, unknown>[]> {
  for (;;) {
    const page = (await (await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).json()) as {
      data: Record<string, unknown>[];
    };
    if (done(page.data)) return page.data;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  service = await startServiceInProcess({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1', WEBHOOK_TIMEOUT: '1' } });
});

afterAll(async () => {
  await Promise.all(receivers.map((made) => made.close()));
  await service?.close();
});

describe('webhooks', () => {
  it('delivers the events asked for, signed as Standard Webhooks specifies, with the secret shown once', async () => {
    const { api, call } = await account();
    const hook = await newReceiver(() => 200);
    const created = await call('POST', '/v1/webhooks', { url: hook.url, event_types: ['profile.created'] });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { id: string; secret: string; status: string };
    expect(webhook).toMatchObject({
      status: 'enabled',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
    });
    const listed = (await (await call('GET', '/v1/webhooks')).json()) as { data: object[] };
    expect(listed.data).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);

    await api.createProxy({ name: 'not asked for', scheme: 'http', host: 'p.example', port: 1 });
    const profile = await api.createProfile({ name: 'Signed' });
    const [delivery] = await hook.until(1);
    const verified = new StandardWebhook(webhook.secret).verify(
      delivery?.body as string,
      delivery?.headers ?? {},
    );
    expect(verified).toMatchObject({ type: 'profile.created', data: { id: profile.id, name: 'Signed' } });
    expect(() =>
      new StandardWebhook(`whsec_${Buffer.from('another secret').toString('base64')}`).verify(
        delivery?.body as string,
        delivery?.headers ?? {},
      ),
    ).toThrow();
    const [recorded] = await deliveriesWhen(call, webhook.id, (all) => all[0]?.status === 'succeeded');
    expect(recorded).toMatchObject({ event_type: 'profile.created', attempts: 1, response_status: 200 });
    expect(hook.received).toHaveLength(1);
  });

  it('retries a delivery the receiver answered with 500, with the same webhook-id', async () => {
    const { api, call } = await account();
    const hook = await newReceiver((count) => (count === 1 ? 500 : 200));
    const created = await call('POST', '/v1/webhooks', { url: hook.url, event_types: ['profile.created'] });
    const webhook = (await created.json()) as { id: string; secret: string };
    await api.createProfile({ name: 'Retried' });
    const [first, second] = await hook.until(2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    new StandardWebhook(webhook.secret).verify(second?.body as string, second?.headers ?? {});
    const [recorded] = await deliveriesWhen(call, webhook.id, (all) => all[0]?.status === 'succeeded');
    expect(recorded).toMatchObject({ attempts: 2, response_status: 200, error: null });
  });

  it('disables the webhook with a reason once every try of a delivery failed', async () => {
    const { api, call } = await account();
    const hook = await newReceiver(() => 500);
    const created = await call('POST', '/v1/webhooks', { url: hook.url, event_types: ['profile.created'] });
    const webhook = (await created.json()) as { id: string };
    await api.createProfile({ name: 'Never delivered' });
    const [recorded] = await deliveriesWhen(call, webhook.id, (all) => all[0]?.status === 'failed');
    expect(recorded).toMatchObject({
      attempts: 3,
      response_status: 500,
      error: 'The receiver answered 500.',
    });
    const listed = (await (await call('GET', '/v1/webhooks')).json()) as { data: object[] };
    expect(listed.data[0]).toMatchObject({
      status: 'disabled',
      disabled_reason: expect.stringContaining('could not be delivered in 3 tries'),
    });
    await api.createProfile({ name: 'After disabling' });
    const after = await deliveriesWhen(call, webhook.id, () => true);
    expect(after).toHaveLength(1);
  });

  it('lets a hanging receiver cost only a retry: another account’s webhook is delivered meanwhile', async () => {
    const hanging = await account();
    const hangs = await newReceiver(() => 'hang');
    const slow = (await (
      await hanging.call('POST', '/v1/webhooks', { url: hangs.url, event_types: ['profile.created'] })
    ).json()) as { id: string };
    const other = await account();
    const answers = await newReceiver(() => 200);
    await other.call('POST', '/v1/webhooks', { url: answers.url, event_types: ['profile.created'] });

    await hanging.api.createProfile({ name: 'To a receiver that hangs' });
    await hangs.until(1);
    await other.api.createProfile({ name: 'Delivered anyway' });
    await answers.until(1);
    const [recorded] = await deliveriesWhen(hanging.call, slow.id, (all) => Number(all[0]?.attempts) >= 1);
    expect(recorded).toMatchObject({
      response_status: null,
      error: 'The receiver did not answer within 1 s.',
    });
  });

  it('answers another account’s webhook as unknown', async () => {
    const owner = await account();
    const stranger = await account();
    const hook = await newReceiver(() => 200);
    const webhook = (await (
      await owner.call('POST', '/v1/webhooks', { url: hook.url, event_types: ['run.finished'] })
    ).json()) as { id: string };
    expect((await stranger.call('GET', `/v1/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
    expect((await stranger.call('DELETE', `/v1/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await owner.call('DELETE', `/v1/webhooks/${webhook.id}`)).status).toBe(204);
  });

  it('checks the body: an address, known event types', async () => {
    const { call } = await account();
    const response = await call('POST', '/v1/webhooks', { url: 'ftp://x', event_types: ['profile.eaten'] });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((error) => error.path).sort()).toEqual(['event_types[0]', 'url']);
  });

  it.each([
    ['https://[fe80::1%25lo]/', 'url: must not hold an IPv6 zone id (the “%…” inside [ ])'],
    ['https://[fe80::1%lo]/hook', 'url: must not hold an IPv6 zone id (the “%…” inside [ ])'],
    ['https://[1:2]/', 'url: is not a valid address'],
    ['https://999.1.1.1/', 'url: is not a valid address'],
  ])('refuses the address %s, which is no URL to send to, with 422 and a sentence', async (url, detail) => {
    const { call } = await account();
    const response = await call('POST', '/v1/webhooks', { url, event_types: ['session.stopped'] });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toBe(`Invalid body: ${detail}`);
    expect(((await (await call('GET', '/v1/webhooks')).json()) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('webhooks where the operator refuses private and loopback addresses', () => {
  let strict: TestService;

  beforeAll(async () => {
    strict = await startServiceInProcess({ env: { WEBHOOK_ALLOW: '', WEBHOOK_ALLOW_HTTP: 'true' } });
  });

  afterAll(async () => {
    await strict?.close();
  });

  it('refuses a webhook URL that leads to loopback or a private network, in any spelling, with a sentence', async () => {
    const key = await strict.createKey('premium');
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost:9/',
      'http://[::1]:9/',
      'https://10.1.2.3/',
    ]) {
      const response = await fetch(`${strict.baseUrl}/v1/webhooks`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, event_types: ['session.stopped'] }),
      });
      expect(response.status, url).toBe(422);
      expect(((await response.json()) as { detail: string }).detail).toMatch(
        /is a loopback, private, link-local or reserved address, which this service does not send webhooks to/,
      );
    }
  });
});
