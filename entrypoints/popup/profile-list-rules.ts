import { allMatching as matching } from '../../components/bulk-rules';
import type { BulkSelection } from '../../lib/api/inputs/bulk';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProfileFilter } from '../../lib/storage';

/** Whether two filters ask the service for the same list. */
export const sameFilter = (a: ProfileFilter, b: ProfileFilter) =>
  (a.q?.trim() ?? '') === (b.q?.trim() ?? '') &&
  a.tag === b.tag &&
  a.status === b.status &&
  (a.sort ?? 'created') === (b.sort ?? 'created');

/** Whether a filter narrows the list (its order alone does not). */
export const narrows = (filter: ProfileFilter) => Boolean(filter.q?.trim() || filter.tag || filter.status);

/** What the person picked in the list: rows one by one, or every profile the list's filter matches. */
export interface Picking {
  ids: string[];
  allMatching: boolean;
}

export const NOTHING_PICKED: Picking = { ids: [], allMatching: false };

/** The list as read: the rows shown, how many match in all, and the filter they were read with. */
export interface Listed {
  shown: Profile[];
  total: number | null | undefined;
  filter: ProfileFilter;
}

/** What a bulk action is on: the rows picked, or every profile the filter matches, by the filter. */
export function bulkSelectionOf(picking: Picking, { shown, total, filter }: Listed) {
  const picked = picking.allMatching ? [] : shown.filter(({ id }) => picking.ids.includes(id));
  const selection: BulkSelection = picking.allMatching
    ? matching(filter)
    : { ids: picked.map(({ id }) => id) };
  return { selection, count: picking.allMatching ? (total ?? 0) : picked.length, picked };
}

export const isPicked = (picking: Picking, id: string) => picking.allMatching || picking.ids.includes(id);

/** The header's box is ticked when every row shown is picked, or every profile matching. */
export const everyShownPicked = (picking: Picking, shown: Profile[]) =>
  shown.length > 0 && shown.every(({ id }) => isPicked(picking, id));

/** One row ticked or unticked; unticking one of all matching leaves the rows read, less that one. */
export function pickOne(picking: Picking, shown: Profile[], id: string, on: boolean): Picking {
  const ids = picking.allMatching ? shown.map((profile) => profile.id) : picking.ids;
  return { allMatching: false, ids: on ? [...ids, id] : ids.filter((other) => other !== id) };
}

/** The header's box: every row shown, or none. */
export const pickShown = (shown: Profile[], on: boolean): Picking => ({
  allMatching: false,
  ids: on ? shown.map(({ id }) => id) : [],
});

/** Who holds a profile when it is not this key's member (their own hold needs no saying). */
export const heldByOther = ({ held_by }: Profile, me: string | undefined) =>
  held_by && held_by.member.id !== me ? held_by : null;
