import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { EndpointName } from '../../lib/api/endpoints';
import type { z } from '../../lib/api/zod';
import { mustMay } from '../accounts/permit';
import { formatWait } from '../core/wait';
import type { AppDeps } from '../http/deps';
import { domainProblem } from '../http/errors';
import { ProblemError } from '../http/problem';
import { type HourlyCount, hourlyLimitReached } from '../http/rate-limit';
import type { WindowVerdict } from '../http/sliding-window';

import type { AccountOfKey } from '../store/accounts';
import { auditTool } from './tool-audit';

/** Who calls the tools of one MCP request, and what the request has counted against the plan's hourly limit. */
export interface ToolContext {
  deps: AppDeps;
  account: AccountOfKey;
  /** Where the client reached the service (a session's `cdp_url` points there). */
  origin: string;
  count: HourlyCount;
  /** The verdict of the last counted call, for the response's RateLimit headers. */
  lastVerdict: WindowVerdict | null;
  /** Aborts when the client goes away or the service shuts down. */
  signal: AbortSignal;
  /** The HTTP request's id, which a failure's reference and the request log share. */
  requestId: string;
  /** Which agent (MCP connection) calls: its page tools act in tabs of its own ('' for a client without one). */
  agent: string;
}

/**
 * What a tool answers, said once and as text (no tool declares an output schema, so none sends structured
 * content): an object, sent as its compact JSON, or a sentence that says what the object is about instead (the
 * object is then what the audit log records); either with images beside it; or content of its own (an image).
 */
export type ToolAnswer =
  | { structured: Record<string, unknown>; text?: string; images?: ToolImage[] }
  | { text: string }
  | { content: CallToolResult['content'] };

/** An image an answer carries beside its text (a run's screenshot), base64 as MCP sends it. */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** An answer as MCP sends it, with no structured content: its text (and images) say it all, once. */
type SaidOnce = CallToolResult & { structuredContent?: never };

/** A tool's shape: its input, an object schema of the contract, and the words a model chooses it by. */
export interface ToolSpec<Input extends z.core.$ZodType> {
  title: string;
  description: string;
  input: Input;
  /** The endpoint of the API the tool does the same as: a key whose role may not call it may not call the tool. */
  acts: EndpointName;
  /** The input as tools/list shows it, where `input` says more than a caller needs to call (every call is still checked against `input`). */
  advertised?: z.core.$ZodType;
  annotations?: ToolAnnotations;
  /** Not counted against the hourly limit, so never refused by it (stopping a session). */
  free?: true;
  /**
   * false: not recorded in the audit log, though its endpoint is (a click or a question in a session: the session's
   * start is recorded, not each act in it).
   */
  audited?: false;
}

/** A tool as registered: its name and its shape. */
export interface ListedTool {
  name: string;
  spec: ToolSpec<z.core.$ZodType>;
}

const registered = new WeakMap<McpServer, ListedTool[]>();

/** The tools registered on a server with addTool, in their order. */
export function registeredTools(server: McpServer): ListedTool[] {
  return registered.get(server) ?? [];
}

/**
 * Registers a tool whose every call is one request of the plan's hourly limit (a refused call is a tool error
 * that says when to retry), and whose refusals (not found, conflicts, limits, invalid values) come back as tool
 * errors with the service's own sentence, as the HTTP API words them.
 */
export function addTool<Input extends z.core.$ZodType>(
  server: McpServer,
  ctx: ToolContext,
  name: string,
  spec: ToolSpec<Input>,
  handler: (args: z.output<Input>) => Promise<ToolAnswer>,
): void {
  registered.set(server, [...registeredTools(server), { name, spec }]);
  const config = {
    title: spec.title,
    description: spec.description,
    inputSchema: spec.input,
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
  };
  // The SDK's generic inference over zod/mini schemas is deep enough to stall the compiler; the arguments are
  // typed here from the schema instead.
  const register = server.registerTool.bind(server) as (
    name: string,
    config: object,
    callback: (args: z.output<Input>) => Promise<SaidOnce>,
  ) => unknown;
  register(name, config, async (args) => {
    const refusal = spec.free ? null : await countCall(ctx);
    if (refusal) return refusal;
    try {
      mustMay(ctx.account.role, spec.acts);
      const answer = await handler(args);
      await auditTool(ctx, spec, args, answer);
      return toResult(answer);
    } catch (error) {
      return failure(ctx, name, error);
    }
  });
}

async function countCall(ctx: ToolContext): Promise<SaidOnce | null> {
  const verdict = await ctx.count(ctx.account, ctx.deps.clock.now().getTime());
  if (verdict === null) return null;
  ctx.lastVerdict = verdict;
  return verdict.allowed ? null : toolError(hourlyLimitReached(ctx.account, verdict));
}

function toResult(answer: ToolAnswer): SaidOnce {
  if ('content' in answer) return { content: answer.content };
  if (!('structured' in answer)) return { content: [{ type: 'text', text: answer.text }] };
  const images = (answer.images ?? []).map((image) => ({ type: 'image' as const, ...image }));
  const text = answer.text ?? JSON.stringify(answer.structured, withoutNulls);
  return { content: [{ type: 'text', text }, ...images] };
}

/** A field that is null says nothing an agent needs to read: left out of an answer's JSON, as an absent one. */
function withoutNulls(_key: string, value: unknown): unknown {
  return value === null ? undefined : value;
}

function toolError(sentence: string): SaidOnce {
  return { content: [{ type: 'text', text: sentence }], isError: true };
}

/** A failure the model can act on: the service's sentence, with when to retry when the service says. */
function failure(ctx: ToolContext, tool: string, error: unknown): SaidOnce {
  const problem = error instanceof ProblemError ? error.problem : domainProblem(error);
  if (problem) {
    const retryAfter = problem.headers?.['Retry-After'];
    const saysWhen = /try again|possible in/.test(problem.detail);
    return toolError(
      retryAfter && !saysWhen
        ? `${problem.detail} Try again in ${formatWait(Number(retryAfter))}.`
        : problem.detail,
    );
  }
  ctx.deps.log.error('MCP tool failed', { tool, request_id: ctx.requestId, error });
  return toolError(`Something went wrong in the service (reference ${ctx.requestId}); it has been logged.`);
}
