import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

let listed: Promise<ListToolsResult> | undefined;

/**
 * Has the server answer tools/list from a list made once per process: the tools and their schemas never change
 * while it runs, and converting every schema is the dearest answer a client can ask for without a tool call.
 * `spare` builds a server of the same tools to make the list with, the first time.
 */
export function answerToolsListOnce(server: McpServer, spare: () => McpServer): void {
  if (!listed) {
    listed = listTools(spare());
    listed.catch(() => {
      listed = undefined;
    });
  }
  const answer = listed;
  server.server.setRequestHandler(ListToolsRequestSchema, () => answer);
}

/** Asks the server for its tools over a link in memory, as a client would. */
async function listTools(server: McpServer): Promise<ListToolsResult> {
  const [client, own] = InMemoryTransport.createLinkedPair();
  await server.connect(own);
  try {
    return await new Promise<ListToolsResult>((resolve, reject) => {
      client.onmessage = (message) => {
        if ('result' in message) resolve(message.result as ListToolsResult);
        else if ('error' in message) reject(new Error(`tools/list failed: ${message.error.message}`));
      };
      client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).catch(reject);
    });
  } finally {
    await server.close();
  }
}
