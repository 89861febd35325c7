import { describe, expect, it } from 'vitest';
import { exportCookiesInPages } from '../../../entrypoints/background/bulk-pages';
import { sumProblems } from '../../../lib/api/bulk-problems';
import type { BulkRequestInput } from '../../../lib/api/inputs/bulk';
import type { BulkResult } from '../../../lib/api/schemas/bulk';

/**
 * A service as the worker calls it: 100 cookie jars a request at most (as BULK_LIMITS), a list read by pages;
 * `prf_7` and the profiles from `unknownFrom` on are no profiles, and an answer lists the first 5 of them.
 */
function service(profiles: number, unknownFrom = profiles) {
  const ids = Array.from({ length: profiles }, (_, n) => `prf_${n}`);
  const asked: string[][] = [];
  const api = {
    async bulkProfiles(body: BulkRequestInput): Promise<BulkResult> {
      const named = body.select.ids ?? [];
      if (named.length > 100) throw new Error('select: must hold at most 100');
      asked.push(named);
      const unknown = named.filter((id) => id === 'prf_7' || Number(id.slice(4)) >= unknownFrom);
      const problem = { status: 404, code: 'not_found', detail: 'There is no profile with this id.' };
      const listed = new Set(unknown.slice(0, 5));
      const items = named
        .filter((id) => !unknown.includes(id) || listed.has(id))
        .map((id) =>
          unknown.includes(id)
            ? { id, ok: false, problem }
            : { id, name: `Seller ${id}`, ok: true, cookies: [] },
        );
      const problems = unknown.length
        ? [{ ...problem, count: unknown.length, profiles: [...listed], ids: [...listed] }]
        : [];
      return {
        action: body.action,
        selected: named.length,
        succeeded: named.length - unknown.length,
        failed: unknown.length,
        problems,
        items,
        ...(unknown.length > listed.size
          ? { unlisted: { count: unknown.length - listed.size, detail: 'more not listed' } }
          : {}),
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
    expect(result.unlisted).toBeUndefined();
  });

  it('adds up the failures each page counts without listing them', async () => {
    const { api, ids } = service(250, 120);
    const result = await exportCookiesInPages(api, { select: { ids }, action: 'export_cookies' });
    expect([result.selected, result.succeeded, result.failed]).toEqual([250, 119, 131]);
    expect(result.items.filter(({ ok }) => !ok).map(({ id }) => id)).toEqual(
      ['prf_7', 'prf_120', 'prf_121', 'prf_122', 'prf_123', 'prf_124'].concat([
        'prf_200',
        'prf_201',
        'prf_202',
        'prf_203',
        'prf_204',
      ]),
    );
    expect(result.unlisted?.count).toBe(120);
    expect(result.unlisted?.detail).toMatch(/^120 more failed profiles are not listed/);
    expect(sumProblems(result.problems)).toMatchObject([{ code: 'not_found', count: 131 }]);
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
