import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProxyInput } from '../../lib/api/inputs/proxies';
import { ProxyListQuery } from '../../lib/api/inputs/queries';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { readCursor } from '../http/validate';
import { checkOwnProxy, createOwnProxy } from '../proxies/proxy-operations';
import { listProxies } from '../store/proxies';
import { addTool, type ToolContext } from './tool-kit';

/** The proxy tools: the same functions as /v1/proxies, for the caller's account only. */
export function addProxyTools(server: McpServer, ctx: ToolContext): void {
  const accountId = ctx.account.id;
  const { deps } = ctx;

  addTool(
    server,
    ctx,
    'list_proxies',
    {
      title: 'List saved proxies',
      description:
        'Lists your saved proxies (passwords are never shown), 50 a page. A profile uses one through proxy_id. ' +
        'Cost: one request of your hourly limit.',
      input: ProxyListQuery,
      annotations: { readOnlyHint: true },
    },
    async (query) => ({
      structured: {
        ...(await listProxies(deps.db, accountId, { limit: query.limit, after: readCursor(query.cursor) })),
      },
    }),
  );

  addTool(
    server,
    ctx,
    'create_proxy',
    {
      title: 'Save a proxy',
      description:
        'Saves a proxy (name, scheme http, https, socks4 or socks5, host, port, optional username and password) that ' +
        'profiles can share through proxy_id. Cost: one request.',
      input: ProxyInput,
    },
    async (body) => ({
      structured: await deps.events.writeWithEvents((tx, emit) =>
        createOwnProxy(tx, emit, deps.clock, accountId, body),
      ),
    }),
  );

  addTool(
    server,
    ctx,
    'check_proxy',
    {
      title: 'Check a saved proxy',
      description:
        'Connects through a saved proxy to the check address the service operator set, and answers whether it ' +
        'works, its exit IP and the time it took. Use it before starting a session behind a new proxy. Cost: one ' +
        'request; takes up to 10 s.',
      input: z.object({ proxy_id: Id.check(z.describe('The saved proxy (prx_…).')) }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ proxy_id }) => {
      const checker = { db: deps.db, checkUrl: deps.config.proxyCheckUrl, egress: deps.config.egress };
      return { structured: { ...(await checkOwnProxy(checker, accountId, proxy_id)) } };
    },
  );
}
