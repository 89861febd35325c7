import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from '../../lib/api/zod';
import type { ListedTool } from './tool-kit';

/**
 * Where a schema says more than an agent needs to choose and call a tool: lengths, bounds, patterns and strictness are
 * still enforced on every call, and a call that breaks one is answered with the rule it broke. Defaults go too
 * (leaving the field out means the default anyway, and a list's answer says how many it gave), and so does an
 * object's empty list of properties, and the type of an object inside another that lists its properties.
 */
const LEFT_UNSAID = new Set([
  '$schema',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'pattern',
  'additionalProperties',
  'default',
]);

let advertised: Tool[] | null = null;

/**
 * Answers tools/list from a list made once per process (the tools are the same for every account): each input
 * schema as JSON Schema, with only what a caller needs to know to call it. A tool's title is left out: its name
 * and description say what it does, and a title would cost the list a thousand characters.
 */
export function advertiseTools(server: McpServer, tools: ListedTool[]): void {
  advertised ??= tools.map(({ name, spec }) => ({
    name,
    description: spec.description,
    inputSchema: {
      type: 'object',
      ...(leanSchema(z.toJSONSchema(spec.advertised ?? spec.input, { io: 'input' })) as object),
    } as Tool['inputSchema'],
    ...(spec.annotations ? { annotations: spec.annotations } : {}),
  }));
  const list = advertised;
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list }));
}

/**
 * A JSON Schema of ours, without the keys LEFT_UNSAID, at any depth, nor the type of a value its enum, const or
 * properties say, and a type or null said as a list of two types rather than two schemas.
 */
function leanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(leanSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const listsProperties = 'properties' in schema && Object.keys(schema.properties as object).length > 0;
  const saysItsType = 'enum' in schema || 'const' in schema || listsProperties;
  const lean = Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !LEFT_UNSAID.has(key))
      .filter(([key]) => !(key === 'type' && saysItsType))
      .filter(([key, value]) => !(key === 'properties' && Object.keys(value as object).length === 0))
      .map(([key, value]) => [key, key === 'properties' ? mapValues(value, leanSchema) : leanSchema(value)]),
  );
  const nullable = orNull(lean);
  return nullable ? { type: [nullable, 'null'] } : lean;
}

function mapValues(record: object, change: (value: unknown) => unknown): object {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, change(value)]));
}

/** The plain type of `{anyOf: [{type: T}, {type: "null"}]}` (and nothing more), else null. */
function orNull(schema: object): string | null {
  const { anyOf, ...rest } = schema as { anyOf?: unknown };
  if (Object.keys(rest).length > 0 || !Array.isArray(anyOf) || anyOf.length !== 2) return null;
  const [first, second] = anyOf as { type?: unknown }[];
  const plain = (part: object | undefined) => part !== undefined && Object.keys(part).length === 1;
  if (!plain(first) || !plain(second) || second?.type !== 'null') return null;
  return typeof first?.type === 'string' ? first.type : null;
}
