import { rm } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { createDataDir, JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { call, connect, httpTransport, startPageSession } from '../../support/mcp-client';

/*
 * A request does not outlive its session: the service stops its sessions when it stops, so after a restart the
 * request is closed as withdrawn by the expiry job (which reports it), and a late answer is told so.
 */

let dataDir: string;
let service: TestService | undefined;

afterAll(async () => {
  await service?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('is withdrawn after a restart, since its session stopped with the service', async () => {
  dataDir = await createDataDir();
  service = await startServiceInProcess({ dataDir });
  const key = await service.createKey('enterprise');
  const agent = await connect(httpTransport(service.baseUrl, key));
  const { id: session_id } = await startPageSession(agent, 'Before the restart');
  // The call waits while the service stops under it; what it answers then does not matter.
  const asking = call(agent, 'request_human', {
    session_id,
    reason: 'confirm the order',
    timeout_ms: 12_000,
  }).catch(() => null);
  let api = requester(service.baseUrl, key);
  const listOpen = async () =>
    ((await (await api('GET', '/v1/help-requests?status=open')).json()) as { data: HelpRequest[] }).data;
  let open: HelpRequest[] = [];
  for (let tries = 0; tries < 100 && open.length === 0; tries++) {
    open = await listOpen();
    if (open.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const [request] = open;
  if (!request) throw new Error('the request never opened');

  await service.close();
  await asking;
  await agent.close().catch(() => {});
  service = await startServiceInProcess({ dataDir });
  api = requester(service.baseUrl, key);

  // Within the expiry job's round (5 s) after the start.
  for (let tries = 0; tries < 70 && (await listOpen()).length > 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await listOpen()).toEqual([]);
  const ended = (await (await api('GET', `/v1/help-requests/${request.id}`)).json()) as HelpRequest;
  expect(ended).toMatchObject({ status: 'closed', outcome: 'withdrawn' });
  const late = await api('POST', `/v1/help-requests/${request.id}/answer`, {
    body: JSON.stringify({ outcome: 'done' }),
    headers: JSON_HEADERS,
  });
  expect(late.status).toBe(409);
  expect(((await late.json()) as { detail: string }).detail).toContain('its session had ended');
});
