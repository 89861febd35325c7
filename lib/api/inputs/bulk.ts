import { MAX_BULK_IDS } from '../bulk-limits';
import { PROFILE_SORTS } from '../profile-sorts';
import { Id } from '../schemas/common';
import { ProfileStatus } from '../schemas/profiles';
import { z } from '../zod';
import { Script } from './automation';
import { Tags } from './common';
import { ProxyUrl } from './profiles';

/**
 * Which profiles a bulk action is on: the ids given (in that order), or every profile of the account that a
 * filter of the list matches (`q` as the list's search, `#tag` too; a `tag`; a `status`), in the list's order:
 * `sort` as GET /v1/profiles takes it, newest first unless asked. Ids of no profile of the account are answered as
 * not found.
 */
export const BulkSelection = z
  .strictObject({
    ids: z.optional(
      z
        .array(Id)
        .check(
          z.minLength(1, 'must name at least one profile'),
          z.maxLength(MAX_BULK_IDS, `must name at most ${MAX_BULK_IDS} profiles`),
        ),
    ),
    filter: z.optional(
      z.strictObject({
        q: z.optional(z.string().check(z.maxLength(100))),
        tag: z.optional(z.string().check(z.maxLength(50))),
        status: z.optional(ProfileStatus),
        sort: z.optional(z.enum(PROFILE_SORTS)),
      }),
    ),
  })
  .check(
    z.refine((select) => (select.ids === undefined) !== (select.filter === undefined), {
      message: 'give either ids or filter',
      path: ['ids'],
    }),
  );

const bulk = <const A extends string, S extends z.core.$ZodLooseShape>(action: A, shape: S) =>
  z.strictObject({ select: BulkSelection, action: z.literal(action), ...shape });

const ProxyList = z
  .array(ProxyUrl)
  .check(
    z.minLength(1, 'must hold at least one proxy'),
    z.maxLength(MAX_BULK_IDS, `must hold at most ${MAX_BULK_IDS} proxies`),
  );

const TagsToChange = Tags.check(z.minLength(1, 'must name at least one tag'));

/**
 * Body of POST /v1/profiles/bulk: one action on a selection. `set_proxy` takes one saved proxy for all
 * (`proxy_id`), or a list of proxies as people paste them (`proxies`), one per profile in the selection's order,
 * saved as proxies where none of the account's says the same.
 */
export const BulkRequest = z.discriminatedUnion('action', [
  bulk('set_proxy', { proxy_id: z.optional(Id), proxies: z.optional(ProxyList) }).check(
    z.refine((body) => (body.proxy_id === undefined) !== (body.proxies === undefined), {
      message: 'give either proxy_id or proxies',
      path: ['proxy_id'],
    }),
  ),
  bulk('clear_proxy', {}),
  bulk('add_tags', { tags: TagsToChange }),
  bulk('remove_tags', { tags: TagsToChange }),
  bulk('run', {
    script: Script,
    name: z.optional(
      z.string().check(z.trim(), z.minLength(1), z.maxLength(100, 'must be at most 100 characters')),
    ),
  }),
  bulk('start', { headless: z.optional(z.boolean()) }),
  bulk('stop', {}),
  bulk('delete', { force: z.optional(z.boolean()) }),
  bulk('export_cookies', {}),
]);

export type BulkSelection = z.output<typeof BulkSelection>;
export type BulkRequest = z.output<typeof BulkRequest>;
export type BulkRequestInput = z.input<typeof BulkRequest>;
