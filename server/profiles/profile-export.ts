import type { ProfileExportQuery } from '../../lib/api/inputs/queries';
import { formatProxyUrl, type ProxyParts } from '../../lib/api/proxy-url';
import { SHEET_COLUMNS } from '../../lib/api/sheets';
import type { z } from '../../lib/api/zod';
import { csvLine } from '../../lib/csv';
import type { Database } from '../db/driver';
import { type ExportPosition, type SheetProfile, sheetPage } from '../store/profile-sheets';
import type { Reader } from '../store/scope';

/** Profiles read from the database at a time while a sheet is written. */
const PAGE = 200;

export interface SheetFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
}

/**
 * The account's profiles the list's filter matches, in its order, as a sheet an import takes back (CSV or
 * NDJSON): written a page at a time as the client reads, never whole in memory. Proxies carry their passwords
 * only when asked.
 */
export function exportProfiles(
  db: Database,
  reader: Reader,
  query: z.output<typeof ProfileExportQuery>,
): SheetFile {
  const { format, sort, q, tag, status } = query;
  const withPasswords = query.passwords === 'true';
  const line = (profile: SheetProfile) => {
    const proxy = profile.proxy && proxyText(profile.proxy, withPasswords);
    return format === 'csv'
      ? csvLine([profile.name, proxy, profile.tags.join(';'), profile.notes])
      : `${JSON.stringify({ name: profile.name, proxy, tags: profile.tags, notes: profile.notes })}\n`;
  };
  const encoder = new TextEncoder();
  let after: ExportPosition = null;
  let started = false;
  let done = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return controller.close();
      const header = !started && format === 'csv' ? csvLine([...SHEET_COLUMNS]) : '';
      started = true;
      const page = await sheetPage(db, reader, { q, tag, status, sort, after, limit: PAGE });
      controller.enqueue(encoder.encode(header + page.profiles.map(line).join('')));
      after = page.next;
      done = after === null;
    },
  });
  return {
    body,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    fileName: `profiles.${format}`,
  };
}

/** A proxy as a line of a sheet: scheme://user:password@host:port, or without the password. */
function proxyText(proxy: ProxyParts, withPassword: boolean): string {
  const shown = formatProxyUrl(proxy);
  if (!withPassword || proxy.password === null || !proxy.username) return shown;
  return shown.replace('@', `:${encodeURIComponent(proxy.password)}@`);
}
