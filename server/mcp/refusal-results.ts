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
 * A limit's refusal as an MCP client can read it: each tool call answered with a tool result whose isError is
 * true and whose text says which limit and when to try again (an agent reads it and waits, where an HTTP 429 is
 * thrown by SDKs as a transport error), any other request with a JSON-RPC error of the same sentence. Null when
 * the body holds no request (notifications only, or not JSON-RPC): the 429 stands.
 */
export function refusalAsResults(body: unknown, refused: Response, detail: string): Response | null {
  const messages = (Array.isArray(body) ? body : [body]).filter(isRequest);
  if (messages.length === 0) return null;
  const answers = messages.map(({ id, method }) =>
    method === 'tools/call'
      ? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: detail }], isError: true } }
      : { jsonrpc: '2.0', id, error: { code: -32000, message: detail } },
  );
  const headers = new Headers(refused.headers);
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(Array.isArray(body) ? answers : answers[0]), { status: 200, headers });
}
