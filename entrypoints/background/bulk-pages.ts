import { MAX_COOKIE_EXPORTS as PAGE } from '../../lib/api/bulk-limits';
import { unlistedFailures } from '../../lib/api/bulk-problems';
import type { ApiClient } from '../../lib/api/client';
import type { BulkRequestInput } from '../../lib/api/inputs/bulk';
import type { BulkResult } from '../../lib/api/schemas/bulk';

/**
 * Cookies of any number of profiles: the service answers at most MAX_COOKIE_EXPORTS a request, so the
 * selection goes a page at a time, one request after another (the ids named, or the filter's profiles read from
 * the list in its order), and the answers are merged in the selection's order.
 */
export async function exportCookiesInPages(
  api: Pick<ApiClient, 'bulkProfiles' | 'listProfiles'>,
  request: BulkRequestInput,
): Promise<BulkResult> {
  const { ids, filter } = request.select;
  const parts: BulkResult[] = [];
  const send = async (page: string[]) => {
    parts.push(await api.bulkProfiles({ ...request, select: { ids: page } }));
  };
  if (ids) for (let start = 0; start < ids.length; start += PAGE) await send(ids.slice(start, start + PAGE));
  else {
    let cursor: string | undefined;
    do {
      const page = await api.listProfiles({ ...filter, limit: PAGE, ...(cursor ? { cursor } : {}) });
      if (page.data.length > 0) await send(page.data.map(({ id }) => id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  const sum = (count: 'selected' | 'succeeded' | 'failed') =>
    parts.reduce((total, part) => total + part[count], 0);
  const items = parts.flatMap((part) => part.items);
  const failed = sum('failed');
  return {
    action: request.action,
    selected: sum('selected'),
    succeeded: sum('succeeded'),
    failed,
    // Each page's problems as it said them: the popup sums them up (the worker is kept small).
    problems: parts.flatMap((part) => part.problems),
    items,
    // A page lists the first few failures of each problem and counts the rest.
    ...unlistedFailures(failed - items.filter(({ ok }) => !ok).length),
  };
}
