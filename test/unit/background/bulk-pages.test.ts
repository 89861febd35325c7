import { describe, expect, it } from 'vitest';
import { exportCookiesInPages } from '../../../entrypoints/background/bulk-pages';
import type { BulkRequestInput } from '../../../lib/api/inputs/bulk';
import type { BulkResult } from '../../../lib/api/schemas/bulk';

/** A service as the worker calls it: 100 cookie jars a request at most (as BULK_LIMITS), a list read by pages. */
function service(profiles: number) {
  const ids = Array.from({ length: profiles }, (_, n) => `prf_${n}`);
  const asked: string[][] = [];
  const api = {
    async bulkProfiles(body: BulkRequestInput): Promise<BulkResult> {
      const named = body.select.ids ?? [];
      if (named.length > 100) throw new Error('select: must hold at most 100');
      asked.push(named);
      const items = named.map((id) => ({ id, name: `Seller ${id}`, ok: id !== 'prf_7', cookies: [] }));
      const failed = items.filter(({ ok }) => !ok).length;
      const problems = named.includes('prf_7')
        ? [
            {
              status: 404,
              code: 'not_found',
              detail: 'There is no profile with this id.',
              count: 1,
              profiles: ['prf_7'],
            },
          ]
        : [];
      return {
        action: body.action,
        selected: named.length,
        succeeded: named.length - failed,
        failed,
        problems,
        items,
      };
    },
    async listProfiles(query?: { limit?: number; cursor?: string; sort?: string }) {
      expect(query?.sort).toBe('name');
      const from = Number(query?.cursor ?? 0);
      const to = from + (query?.limit ?? 50);
      return {
        data: ids.slice(from, to).map((id) => ({ id }) as never),
        next_cursor: to < ids.length ? String(to) : null,
      };
    },
  };
  return { api, asked, ids };
}

describe('cookie export of more than 100 profiles', () => {
  it('sends named profiles 100 a request and merges the answers in their order', async () => {
    const { api, asked, ids } = service(250);
    const result = await exportCookiesInPages(api, { select: { ids }, action: 'export_cookies' });
    expect(asked.map((page) => page.length)).toEqual([100, 100, 50]);
    expect(result.items.map(({ id }) => id)).toEqual(ids);
    expect([result.selected, result.succeeded, result.failed]).toEqual([250, 249, 1]);
    expect(result.problems).toMatchObject([{ code: 'not_found', count: 1, profiles: ['prf_7'] }]);
  });

  it('reads a filter’s profiles from the list in its order, a page at a time', async () => {
    const { api, asked, ids } = service(230);
    const result = await exportCookiesInPages(api, {
      select: { filter: { tag: 'shop', sort: 'name' } },
      action: 'export_cookies',
    });
    expect(asked.flat()).toEqual(ids);
    expect(result.selected).toBe(230);
  });
});
