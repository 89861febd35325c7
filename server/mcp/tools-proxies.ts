import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProxyInput } from '../../lib/api/inputs/proxies';
import { ProxyListQuery } from '../../lib/api/inputs/queries';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { readCursor } from '../http/validate';
import { checkOwnProxy, createOwnProxy } from '../proxies/proxy-operations';
import { listProxies } from '../store/proxies';
import { Detail, linesAnswer, proxyLine } from './compact';
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
      acts: 'listProxies',
      title: 'List saved proxies',
      description: 'One line per saved proxy.',
      input: z.extend(ProxyListQuery, { detail: Detail }),
      annotations: { readOnlyHint: true },
    },
    async ({ detail, ...query }) => {
      const page = await listProxies(deps.db, accountId, { ...query, after: readCursor(query.cursor) });
      return detail ? { structured: { ...page } } : linesAnswer('proxies', page, proxyLine);
    },
  );

  addTool(
    server,
    ctx,
    'create_proxy',
    {
      acts: 'createProxy',
      title: 'Save a proxy',
      description: 'Saves a proxy, for profiles to share by proxy_id.',
      input: ProxyInput,
    },
    async (body) => {
      const proxy = await deps.events.writeWithEvents((tx, emit) =>
        createOwnProxy(tx, emit, deps.clock, accountId, body),
      );
      return { structured: { id: proxy.id, name: proxy.name, url: proxy.url } };
    },
  );

  addTool(
    server,
    ctx,
    'check_proxy',
    {
      acts: 'checkProxy',
      title: 'Check a saved proxy',
      description: 'Whether a saved proxy works: exit IP, place (10 s).',
      input: z.object({ proxy_id: Id }),
      annotations: { readOnlyHint: true },
    },
    async ({ proxy_id }) => {
      const checker = {
        db: deps.db,
        clock: deps.clock,
        checkUrl: deps.config.proxyCheckUrl,
        egress: deps.config.egress,
      };
      return { structured: { ...(await checkOwnProxy(checker, accountId, proxy_id)) } };
    },
  );
}
