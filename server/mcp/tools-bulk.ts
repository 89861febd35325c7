import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { BulkRequest } from '../../lib/api/inputs/bulk';
import type { BulkItem, BulkResult } from '../../lib/api/schemas/bulk';
import { z } from '../../lib/api/zod';
import { InvalidInput } from '../core/domain-errors';
import { bulkAnswer } from '../http/bulk-answer';
import { actInTurn } from '../http/bulk-turns';
import { addTool, type ToolContext } from './tool-kit';

/** The most items an answer lists one per line; the rest are counted. */
const MAX_LINES = 50;

/** export_cookies is left to get_cookies, one profile at a time: a thousand profiles' cookies fit no answer. */
const ACTIONS = BulkRequest._zod.def.options
  .map((option) => option._zod.def.shape.action._zod.def.values[0] as string)
  .filter((action) => action !== 'export_cookies');

/** bulk_profiles' input as said: each action's fields in the description, rather than nine schemas. */
const AdvertisedBulk = z.object({
  action: z.enum(ACTIONS),
  select: z.object({}).check(z.describe('{ids} or {filter: {q, tag, status}}')),
  tags: z.optional(z.array(z.string())),
  proxy_id: z.optional(z.string()),
  script: z.optional(z.object({})),
  force: z.optional(z.boolean()),
});

/** One action on many profiles: the same as POST /v1/profiles/bulk, in one turn per account. */
export function addBulkTool(server: McpServer, ctx: ToolContext): void {
  addTool(
    server,
    ctx,
    'bulk_profiles',
    {
      acts: 'bulkProfiles',
      title: 'Act on many profiles',
      description:
        'One action on many profiles, with its field: tags, proxy_id, script (run_script’s) or force.',
      input: BulkRequest,
      advertised: AdvertisedBulk,
    },
    async (body) => {
      if (body.action === 'export_cookies')
        throw new InvalidInput(
          'action',
          'is not one of this tool’s',
          'Read cookies with get_cookies, one profile at a time.',
        );
      const parts = { ...ctx.deps, dataDir: ctx.deps.config.dataDir };
      const done = await actInTurn(parts, ctx.account, body);
      return { text: bulkText(bulkAnswer(body.action, done, ctx.deps.log)) };
    },
  );
}

function bulkText(result: BulkResult): string {
  const waiting = result.waiting ? `, ${result.waiting} of them waiting for room` : '';
  const batch = result.batch_id ? ` Batch ${result.batch_id}.` : '';
  const heading = `${result.action} on ${result.selected} profiles: ${result.succeeded} succeeded${waiting}, ${result.failed} failed.${batch}`;
  const lines = result.items.slice(0, MAX_LINES).map(itemLine);
  const more = result.items.length - lines.length;
  return [
    heading,
    ...lines,
    ...(more > 0 ? [`${more} more not listed.`] : []),
    ...result.problems
      .filter(({ count, ids }) => count > ids.length)
      .map(({ count, detail }) => `${count} failed: ${detail}`),
    ...(result.unlisted ? [result.unlisted.detail] : []),
  ].join('\n');
}

function itemLine(item: BulkItem): string {
  const parts = [item.id, ...(item.name === undefined ? [] : [JSON.stringify(item.name)])];
  if (!item.ok) return [...parts, `failed: ${item.problem?.detail}`].join(' · ');
  if (item.session_id) parts.push(`session ${item.session_id}${item.waiting ? ' (waiting)' : ''}`);
  if (item.run_id) parts.push(`run ${item.run_id}`);
  if (item.proxy_id) parts.push(`proxy ${item.proxy_id}`);
  return [...parts, 'done'].join(' · ');
}
