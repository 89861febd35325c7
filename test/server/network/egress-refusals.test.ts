import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Step } from '../../../lib/api/inputs/automation';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/** Only 127.0.0.2 is allowed: the page there is reachable, the rest of loopback stays refused. */
const ALLOWED_PAGE_HOST = '127.0.0.2';

let service: TestService;
let api: ApiClient;
let site: Server;
let refusedOrigin: string;
let allowedOrigin: string;

beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === '/away') response.writeHead(302, { Location: `${refusedOrigin}/secret` }).end();
    else response.setHeader('Content-Type', 'text/html').end('<title>Local</title>secret');
  });
  await new Promise<void>((resolve) => site.listen(0, '0.0.0.0', resolve));
  const { port } = site.address() as AddressInfo;
  refusedOrigin = `http://127.0.0.1:${port}`;
  allowedOrigin = `http://${ALLOWED_PAGE_HOST}:${port}`;
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: ALLOWED_PAGE_HOST } });
  api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});

afterAll(async () => {
  await service?.close();
  if (service) await rm(service.dataDir, { recursive: true, force: true });
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

async function runSteps(sessionId: string, steps: Step[]): Promise<AutomationRun> {
  const queued = await api.runAutomation({ session_id: sessionId, script: { steps } });
  for (;;) {
    const run = await api.getRun(queued.id, { wait: 25, until: 'finished' });
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
  }
}

const POLICY = (address: string) =>
  `${address} is in the loopback range 127.0.0.0/8, which sessions may not reach on this service; its operator can allow ranges with EGRESS_ALLOW`;

describe('refusals of the egress policy read as refusals', () => {
  it('fails a goto the policy refuses with its sentence, over plain HTTP, HTTPS and through a redirect', async () => {
    const profile = await api.createProfile({ name: 'Refused' });
    const session = await api.startSession({ profile_id: profile.id });
    const allowed = await runSteps(session.id, [
      { action: 'goto', url: `${allowedOrigin}/` },
      { action: 'extract', selector: 'title', name: 'title' },
    ]);
    expect(allowed).toMatchObject({ status: 'succeeded', output: { title: 'Local' } });

    const plain = await runSteps(session.id, [{ action: 'goto', url: `${refusedOrigin}/` }]);
    expect(plain.status).toBe('failed');
    expect(plain.error).toBe(`Step 1 (goto '${refusedOrigin}/') failed: ${POLICY('127.0.0.1')}.`);

    const redirected = await runSteps(session.id, [{ action: 'goto', url: `${allowedOrigin}/away` }]);
    expect(redirected.status).toBe('failed');
    expect(redirected.error).toContain(`failed: ${POLICY('127.0.0.1')}.`);

    const secure = await runSteps(session.id, [{ action: 'goto', url: 'https://127.0.0.1:9/' }]);
    expect(secure.status).toBe('failed');
    expect(secure.error).toContain(`failed: ${POLICY('127.0.0.1')}.`);
    await api.stopSession({ session_id: session.id });
  }, 120_000);

  it('refuses at start, with 422 and the sentence, a session whose profile proxy is at a forbidden address', async () => {
    const proxy = await api.createProxy({
      name: 'On this machine',
      scheme: 'http',
      host: '127.0.0.1',
      port: 3128,
    });
    const profile = await api.createProfile({ name: 'Behind a local proxy', proxy_id: proxy.id });
    const error = await apiError(api.startSession({ profile_id: profile.id }));
    expect([error.status, error.code]).toEqual([422, 'validation_failed']);
    expect(error.message).toContain(`${POLICY('127.0.0.1')}.`);
  });
});
