import { BULK_LIMITS } from '../../lib/api/bulk-limits';
import type { ApiClient } from '../../lib/api/client';
import type { BulkRequestInput } from '../../lib/api/inputs/bulk';
import type { BulkResult } from '../../lib/api/schemas/bulk';

type Api = Pick<ApiClient, 'bulkProfiles' | 'listProfiles'>;

/** The ids of a selection a page at a time: those named, or the filter's profiles read from the list in its order. */
async function* pagesOf(api: Api, { select }: BulkRequestInput, size: number): AsyncGenerator<string[]> {
  if (select.ids) {
    for (let start = 0; start < select.ids.length; start += size) yield select.ids.slice(start, start + size);
    return;
  }
  const { q, tag, status, sort } = select.filter ?? {};
  let cursor: string | undefined;
  do {
    const page = await api.listProfiles({ q, tag, status, sort, limit: size, ...(cursor ? { cursor } : {}) });
    if (page.data.length > 0) yield page.data.map(({ id }) => id);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}

/**
 * Cookies of any number of profiles: the service answers at most BULK_LIMITS.export_cookies a request, so the
 * selection goes a page at a time, one request after another, and the answers are merged in the selection's order.
 */
export async function exportCookiesInPages(api: Api, request: BulkRequestInput): Promise<BulkResult> {
  const merged: BulkResult = { action: request.action, selected: 0, succeeded: 0, failed: 0, items: [] };
  for await (const ids of pagesOf(api, request, BULK_LIMITS.export_cookies)) {
    const part = await api.bulkProfiles({ ...request, select: { ids } });
    merged.selected += part.selected;
    merged.succeeded += part.succeeded;
    merged.failed += part.failed;
    merged.items.push(...part.items);
  }
  return merged;
}
