import { randomBytes } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { hourlyCount, rateLimitHeaders } from '../http/rate-limit';
import { parseJson, readRawBody } from '../http/validate';
import { batchTooLarge, mcpDoor } from './mcp-door';
import { refusedCalls } from './refusal-results';
import { buildMcpServer } from './server';
import type { ToolContext } from './tool-kit';

export const MCP_PATH = '/v1/mcp';
const SESSION_HEADER = 'Mcp-Session-Id';
/** What an Mcp-Session-Id may be: visible ASCII (the spec's rule), within a bound. */
const SESSION_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Which agent a request is from, so that each works in tabs of its own: the Mcp-Session-Id its client sends back,
 * or a new one for an initialize (answered in that header, which clients send on every later request); '' for a
 * client that sends none (all such clients share one agent's tabs).
 */
function agentOf(given: string | undefined, body: unknown): string {
  if (given !== undefined) return SESSION_ID.test(given) ? given : '';
  const messages = Array.isArray(body) ? body : [body];
  const initializes = messages.some((message) => (message as { method?: unknown })?.method === 'initialize');
  return initializes ? `agent_${randomBytes(16).toString('base64url')}` : '';
}

/**
 * MCP over Streamable HTTP at /v1/mcp, behind the same key as the rest of /v1 (the app's auth middleware runs
 * first). Stateless: every POST is answered by a server built for its account, with JSON answers, so any process
 * of a cluster answers any request and none keeps state per client (what must persist between calls, an agent's
 * tabs and the refs of their pages, lives beside the session's browser, under the agent's `Mcp-Session-Id`; see
 * agent-pages.ts). An account over a limit gets tool results that say so (refusal-results.ts).
 * Tool calls count against the plan's hourly limit one by one; every request passes `mcpDoor` first (a
 * refused account is turned away, a minute's budget of requests) and holds few messages. GET (a stream the
 * server would start) and DELETE (ending a session) are 405, as the spec has a stateless server answer.
 */
export function mcpEndpoint(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const count = hourlyCount(deps.db, deps.usageTally);
  const door = mcpDoor(deps);
  app.post(MCP_PATH, async (c) => {
    const turnedAway = door(c.get('account'));
    if (turnedAway) return refusedCalls(c.req.raw, turnedAway);
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
      agent: agentOf(c.req.header(SESSION_HEADER), parsedBody),
    };
    const server = buildMcpServer(ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(c.req.raw, { parsedBody });
      const headers = new Headers(response.headers);
      if (ctx.agent && !c.req.header(SESSION_HEADER)) headers.set(SESSION_HEADER, ctx.agent);
      if (ctx.lastVerdict)
        for (const [name, value] of Object.entries(rateLimitHeaders(ctx.lastVerdict)))
          headers.set(name, value);
      return new Response(response.body, { status: response.status, headers });
    } finally {
      await server.close();
    }
  });
  return app;
}
