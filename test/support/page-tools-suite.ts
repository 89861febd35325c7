import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestService } from './harness';
import { startServiceInProcess } from './in-process-service';
import { call, connect, httpTransport, servePages, startPageSession } from './mcp-client';

export interface PageToolsSuite {
  site: { origin: string };
  service: TestService;
  key: string;
  /** The first agent's connection, which started the session. */
  client: Client;
  /** Every agent's connection, the first one first. */
  clients: Client[];
  session: { id: string; cdpUrl: string };
  /** Stops the session, then closes the connections, the service and the site. */
  close(): Promise<void>;
}

/**
 * What the page-tool tests share: a site of `pageOf`'s pages on loopback, a service in this process whose
 * sessions may reach loopback (the operator's EGRESS_ALLOW), `agents` MCP connections with one enterprise key,
 * and a running session named `name`.
 */
export async function openPageToolsSuite(
  pageOf: (path: string) => string,
  name: string,
  agents = 1,
): Promise<PageToolsSuite> {
  const site = await servePages(pageOf);
  const service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback' } });
  const key = await service.createKey('enterprise');
  const clients = await Promise.all(
    Array.from({ length: agents }, () => connect(httpTransport(service.baseUrl, key))),
  );
  const [client] = clients as [Client];
  const session = await startPageSession(client, name);
  return {
    site,
    service,
    key,
    client,
    clients,
    session,
    async close() {
      await call(client, 'stop_session', { session_id: session.id });
      await Promise.all(clients.map((each) => each.close()));
      await service.close();
      await site.close();
    },
  };
}
