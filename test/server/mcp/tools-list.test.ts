import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildMcpServer } from '../../../server/mcp/server';
import type { ToolContext } from '../../../server/mcp/tool-kit';

/** What the tools list may cost an agent's context, in characters of its JSON. */
const TOOLS_LIST_BUDGET = 12_000;
/** What it costs at most today: 500 characters of the budget are kept for the tools to come. */
const TOOLS_LIST_NOW = 11_500;

/** A client of the tools with no service behind them: it lists them, and its calls reach only the argument check. */
async function lister(): Promise<Client> {
  const server = buildMcpServer({ account: { id: 'acc_lister' }, deps: {} } as unknown as ToolContext);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'lister', version: '1' });
  await client.connect(clientSide);
  return client;
}

async function listTools() {
  const client = await lister();
  const listed = await client.listTools();
  await client.close();
  return listed;
}

describe('the MCP tools list', () => {
  it(`costs at most ${TOOLS_LIST_NOW} characters of its ${TOOLS_LIST_BUDGET}, every tool said in a sentence or two`, async () => {
    const listed = await listTools();
    const size = JSON.stringify(listed).length;
    console.log(
      `tools list: ${listed.tools.length} tools, ${size} characters (at most ${TOOLS_LIST_NOW}; budget ${TOOLS_LIST_BUDGET})`,
    );
    expect(size).toBeLessThanOrEqual(TOOLS_LIST_NOW);
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
    expect(text, 'a default').not.toContain('"default"');
  });

  it('says a list’s items in a sentence where it is shorter, and still checks each call against their schema', async () => {
    const client = await lister();
    const { tools } = await client.listTools();
    const items = (name: string, list: string) => {
      const schema = tools.find((tool) => tool.name === name)?.inputSchema.properties?.[list] as {
        items: { description: string };
      };
      return schema.items.description;
    };
    expect(items('browser_fill_form', 'fields')).toContain(
      'type (textbox, checkbox, radio, combobox or slider)',
    );
    expect(items('set_cookies', 'cookies')).toMatch(/^name, value, domain; /);
    const refusals: [string, Record<string, unknown>, string][] = [
      [
        'browser_fill_form',
        { session_id: 'ses_1', fields: [{ ref: 'e1', type: 'button', value: 'x' }] },
        'fields[0].type',
      ],
      [
        'browser_file_upload',
        { session_id: 'ses_1', ref: 'e1', files: [{ name: 'a.txt' }] },
        'files[0].base64',
      ],
      ['set_cookies', { profile_id: 'prf_1', cookies: [{ name: 'a', value: 'b' }] }, 'cookies[0].domain'],
      ['run_script', { script: { steps: [{ action: 'jump' }] } }, 'script.steps[0]'],
    ];
    for (const [name, args, path] of refusals) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect({ name, isError: result.isError, text }).toEqual({
        name,
        isError: true,
        text: expect.stringContaining(`- ${path}`),
      });
    }
    await client.close();
  });
});
