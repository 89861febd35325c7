/** Sheets of profiles (POST /v1/profiles/import, GET /v1/profiles/export): their columns, types and size. */

/** The most rows one import takes; a larger file is refused whole. */
export const MAX_IMPORT_ROWS = 10_000;

/** A sheet's columns, in the order an export writes them; `name` is the one an import needs. */
export const SHEET_COLUMNS = ['name', 'proxy', 'tags', 'notes'] as const;

/** The types an import reads: CSV (a header line, tags split by `;`) or one JSON object a line. */
export const SHEET_TYPES = { csv: 'text/csv', ndjson: 'application/x-ndjson' } as const;
export type SheetFormat = keyof typeof SHEET_TYPES;
