import { SHEET_TYPES, type SheetFormat } from '../../lib/api/sheets';
import { ProblemError } from '../http/problem';
import { type Route, route } from '../http/route';
import { readRawBody } from '../http/validate';
import { exportProfiles } from '../profiles/profile-export';
import { importProfiles } from '../profiles/profile-import';
import { readSheet } from '../profiles/sheet-reading';

/** The most bytes a sheet may hold: 10,000 rows of about 400. */
const SHEET_BODY_BYTES = 4 * 1024 * 1024;

/** Registered before the profile routes: `/v1/profiles/export` is not a profile with the id "export". */
export const profileSheetRoutes: Route[] = [
  route(
    'importProfiles',
    async (c, { status }, deps) => {
      const format = sheetFormat(c.req.header('content-type'));
      const text = readText(await readRawBody(c));
      const rows = readSheet(format, text);
      return c.json(await importProfiles(deps, c.get('account').id, rows), status);
    },
    { bodyLimit: SHEET_BODY_BYTES },
  ),

  route('exportProfiles', (c, { query, status }, { db }) => {
    const file = exportProfiles(db, c.get('account'), query);
    return c.body(file.body, status, {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
  }),
];

function sheetFormat(header: string | undefined): SheetFormat {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  const format = (Object.keys(SHEET_TYPES) as SheetFormat[]).find((name) => SHEET_TYPES[name] === type);
  if (format) return format;
  throw new ProblemError({
    status: 415,
    code: 'unsupported_media_type',
    detail: `Send the sheet as text/csv (header name,proxy,tags,notes) or application/x-ndjson (one JSON object a line), not ${type || 'without a Content-Type'}.`,
  });
}

function readText(body: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new ProblemError({
      status: 422,
      code: 'validation_failed',
      detail: 'The sheet is not UTF-8 text: save it as CSV UTF-8 (or NDJSON) and send it again.',
    });
  }
}
