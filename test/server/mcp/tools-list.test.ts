import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from '../../../server/mcp/server';
import type { ToolContext } from '../../../server/mcp/tool-kit';

/** What the tools list may cost an agent's context, in characters of its JSON. */
const TOOLS_LIST_BUDGET = 12_000;

async function listTools() {
  // Listing calls no tool: the context is never read.
  const server = buildMcpServer({ account: { id: 'acc_lister' }, deps: {} } as unknown as ToolContext);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'lister', version: '1' });
  await client.connect(clientSide);
  const listed = await client.listTools();
  await client.close();
  return listed;
}

describe('the MCP tools list', () => {
  it(`costs at most ${TOOLS_LIST_BUDGET} characters, every tool said in a sentence or two`, async () => {
    const listed = await listTools();
    const size = JSON.stringify(listed).length;
    console.log(`tools list: ${listed.tools.length} tools, ${size} characters (budget ${TOOLS_LIST_BUDGET})`);
    expect(size).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    for (const tool of listed.tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
      expect(tool.description?.length, tool.name).toBeLessThanOrEqual(220);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      // None declares an output schema, so none answers with structured content repeating its text.
      expect(tool.outputSchema, tool.name).toBeUndefined();
    }
  });

  it('leaves out of each schema only what every call still enforces, and says nullable types as a list', async () => {
    const { tools } = await listTools();
    const text = JSON.stringify(tools);
    for (const key of ['$schema', 'maxLength', 'pattern', 'additionalProperties'])
      expect(text, key).not.toContain(`"${key}"`);
    const createProxy = tools.find((tool) => tool.name === 'create_proxy');
    expect(createProxy?.inputSchema.properties?.username).toEqual({ type: ['string', 'null'] });
    expect(createProxy?.inputSchema.required).toEqual(['scheme', 'host', 'port']);
    const createProfile = tools.find((tool) => tool.name === 'create_profile');
    expect(Object.keys(createProfile?.inputSchema.properties ?? {})).not.toContain('identity');
  });
});
