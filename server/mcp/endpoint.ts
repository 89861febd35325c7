import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { hourlyCount, rateLimitHeaders } from '../http/rate-limit';
import { parseJson, readRawBody } from '../http/validate';
import { batchTooLarge, mcpDoor } from './mcp-door';
import { buildMcpServer } from './server';
import type { ToolContext } from './tool-kit';

export const MCP_PATH = '/v1/mcp';

/**
 * MCP over Streamable HTTP at /v1/mcp, behind the same key as the rest of /v1 (the app's auth middleware runs
 * first). Stateless: every POST is answered by a server built for its account, with JSON answers and no
 * `Mcp-Session-Id`, so any process of a cluster answers any request and none keeps state per client (what
 * must persist between calls, the refs of a page, lives beside the session's browser; see agent-pages.ts).
 * Tool calls count against the plan's hourly limit one by one; every request passes `mcpDoor` first (a
 * refused account is turned away, a minute's budget of requests) and holds few messages. GET (a stream the
 * server would start) and DELETE (ending a session) are 405, as the spec has a stateless server answer.
 */
export function mcpEndpoint(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const count = hourlyCount(deps.db);
  const door = mcpDoor(deps);
  app.post(MCP_PATH, async (c) => {
    const turnedAway = door(c.get('account'));
    if (turnedAway) return turnedAway;
    const parsedBody = parseJson(await readRawBody(c));
    const tooMany = batchTooLarge(parsedBody);
    if (tooMany) return tooMany;
    const ctx: ToolContext = {
      deps,
      account: c.get('account'),
      origin: new URL(c.req.url).origin,
      count,
      lastVerdict: null,
      signal: AbortSignal.any([c.req.raw.signal, deps.lifecycle.shutdownSignal]),
      requestId: c.get('requestId'),
    };
    const server = buildMcpServer(ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(c.req.raw, { parsedBody });
      if (!ctx.lastVerdict) return response;
      const headers = new Headers(response.headers);
      for (const [name, value] of Object.entries(rateLimitHeaders(ctx.lastVerdict))) headers.set(name, value);
      return new Response(response.body, { status: response.status, headers });
    } finally {
      await server.close();
    }
  });
  return app;
}
