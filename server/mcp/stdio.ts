import { parseArgs } from 'node:util';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isWellFormedKey, KEY_MARKER, KEY_RANDOM_LENGTH } from '../../lib/api/key-shape';

/**
 * For MCP clients that speak only stdio: `npm run mcp -- --url http://127.0.0.1:8787`, with the API key in
 * PROFILE_PILOT_KEY. Relays every message between the client on stdin/stdout and the service's /v1/mcp, so the
 * tools, the key's account and its hourly limit are the service's; nothing is decided here.
 */
const USAGE = 'Usage: PROFILE_PILOT_KEY=<key> npm run mcp -- --url http://127.0.0.1:8787';

function settings(): { endpoint: URL; key: string } {
  const { values } = parseArgs({ options: { url: { type: 'string' } } });
  const key = process.env.PROFILE_PILOT_KEY?.trim();
  if (!values.url || !key) {
    process.stderr.write(`${!key ? 'PROFILE_PILOT_KEY is not set. ' : 'No --url given. '}${USAGE}\n`);
    process.exit(2);
  }
  // Checked here, as a header with a line break would be refused by fetch in a message that quotes it whole.
  if (!isWellFormedKey(key)) {
    process.stderr.write(
      `PROFILE_PILOT_KEY is not an API key: a key is ${KEY_MARKER} and ${KEY_RANDOM_LENGTH} letters and digits, on one line. Copy it again from the dashboard.\n`,
    );
    process.exit(2);
  }
  return { endpoint: new URL('/v1/mcp', values.url), key };
}

/** The sentence for a message the service did not take: its own answer, or why it could not be reached. */
function failure(endpoint: URL, error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error.cause as { code?: string } | undefined)?.code;
  return error.message === 'fetch failed'
    ? `The service at ${endpoint.origin} could not be reached${cause ? ` (${cause})` : ''}.`
    : error.message;
}

async function relay(): Promise<void> {
  const { endpoint, key } = settings();
  const upstream = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  // A request the service refused (a bad key, an unreachable address) is answered, so the client does not wait.
  local.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch((error: unknown) => {
      if (isJSONRPCRequest(message))
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: failure(endpoint, error) },
        });
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => process.stderr.write(`profile-pilot MCP: ${failure(endpoint, error)}\n`);
  local.onclose = () => void upstream.close().finally(() => process.exit(0));
  await upstream.start();
  await local.start();
}

await relay();
