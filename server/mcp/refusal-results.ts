import { MAX_BATCH_MESSAGES } from './mcp-door';

/** The largest body a refused request is read for, to answer its tool calls: an attacker's is not read. */
const MAX_REFUSED_BODY_BYTES = 64 * 1024;

/** A JSON-RPC request as far as a refusal needs it: its id, and which method it calls. */
interface RpcRequest {
  id: string | number;
  method: string;
}

const isRequest = (message: unknown): message is RpcRequest =>
  typeof message === 'object' &&
  message !== null &&
  'method' in message &&
  typeof message.method === 'string' &&
  'id' in message &&
  (typeof message.id === 'string' || typeof message.id === 'number');

/**
 * A limit's refusal as an MCP client can read it: tool calls are answered with tool results whose isError is true
 * and whose text says which limit and when to try again (an agent reads it and waits, where an HTTP 429 is thrown
 * by SDKs as a transport error, and the agent crashed). Anything else (tools/list, a batch past its bound, a large
 * body) keeps the 429, answered without reading more.
 */
export async function refusedCalls(request: Request, refused: Response): Promise<Response> {
  const length = Number(request.headers.get('content-length') ?? Number.POSITIVE_INFINITY);
  if (!(length <= MAX_REFUSED_BODY_BYTES)) return refused;
  const body = await request.json().catch(() => null);
  const messages = Array.isArray(body) ? body : [body];
  const calls = messages.filter(isRequest);
  if (messages.length > MAX_BATCH_MESSAGES || calls.length !== messages.length) return refused;
  if (calls.some((call) => call.method !== 'tools/call')) return refused;
  const { detail } = (await refused.clone().json()) as { detail: string };
  const answers = calls.map(({ id }) => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: detail }], isError: true },
  }));
  const headers = new Headers(refused.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(Array.isArray(body) ? answers : answers[0]), { status: 200, headers });
}
