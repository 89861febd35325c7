/**
 * Stored text without a limit, tried as the attack: a 900 KB proxy address was stored and sent again in every
 * list. Every string a request body of the contract (the /v1 routes, the dashboard, the MCP tools) takes has a
 * maximum length, and a proxy address past its maximum is refused.
 */
import { describe, expect, it } from 'vitest';
import { ProfileCreate } from '../../../lib/api/inputs/profiles';
import { requests } from '../../../lib/api/requests';
import { z } from '../../../lib/api/zod';
import * as dashboard from '../../../lib/dashboard/schemas';
import { PAGE_TOOLS } from '../../../server/pages/tools';

type JsonSchema = Record<string, unknown>;

/** The paths of the strings in `schema` that have no maxLength (nor a fixed set of values). */
function unboundedStrings(schema: JsonSchema): string[] {
  const found: string[] = [];
  const pending: [unknown, string][] = [[schema, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, path] = next;
    if (typeof node !== 'object' || node === null) continue;
    const item = node as JsonSchema;
    if (item.type === 'string' && item.maxLength === undefined && !item.enum && item.const === undefined)
      found.push(path || '(the value)');
    for (const [key, child] of Object.entries(item)) pending.push([child, `${path}/${key}`]);
  }
  return found.sort();
}

const inputs: [string, z.core.$ZodType][] = [
  ...Object.entries(requests).flatMap(([name, parts]) =>
    'body' in parts ? [[name, parts.body] as [string, z.core.$ZodType]] : [],
  ),
  ...PAGE_TOOLS.map((tool) => [`page tool ${tool.name}`, z.object(tool.input)] as [string, z.core.$ZodType]),
  ...Object.entries(dashboard).flatMap(([name, schema]) =>
    name.endsWith('Input')
      ? [[`dashboard ${name}`, schema as z.core.$ZodType] as [string, z.core.$ZodType]]
      : [],
  ),
];

describe('the strings request bodies take', () => {
  it.each(inputs)('%s: each has a maximum length', (_name, schema) => {
    expect(unboundedStrings(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }))).toEqual([]);
  });

  it('refuse a 900 KB proxy address', () => {
    const proxy = `http://user:${'p'.repeat(900 * 1024)}@127.0.0.1:3128`;
    const result = z.safeParse(ProfileCreate, { name: 'Shop', proxy });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain('proxy');
  });
});
