import { ProfileSheetRow } from '../../lib/api/inputs/profile-sheet';
import { summarizeIssues } from '../../lib/api/issues';
import type { Profile } from '../../lib/api/schemas/profiles';
import { sheetColumns, sheetRowJson } from '../../lib/api/sheet-rows';
import { SHEET_COLUMNS } from '../../lib/api/sheets';
import { z } from '../../lib/api/zod';
import { CsvError, csvLine, parseCsv, undefusedCell } from '../../lib/csv';

/** Rows a preview shows before the import. */
export const PREVIEW_ROWS = 10;

export interface PreviewRow {
  line: number;
  /** The row's cells by column, as read. */
  cells: string[];
  /** What the service will refuse in it, as a sentence; null when it can be imported. */
  problem: string | null;
}

/** A CSV sheet as the import will read it: its columns, its first rows each with its problem, how many rows in all. */
export type SheetPreview =
  | { columns: string[]; rows: PreviewRow[]; total: number; failing: number }
  | { problem: string };

/** Reads a sheet the person chose, checks each row as the service will, and keeps the first `PREVIEW_ROWS`. */
export function previewSheet(text: string): SheetPreview {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) return { problem: `The CSV cannot be read: ${error.message}.` };
    throw error;
  }
  const [header, ...body] = records;
  if (!header)
    return {
      problem: `The file is empty: give the header line ${SHEET_COLUMNS.join(',')} and one line per profile.`,
    };
  const columns = sheetColumns(header.cells);
  if (!Array.isArray(columns)) return columns;
  const rows = body.map(({ line, cells }) => ({ line, cells, problem: problemOf(columns, cells) }));
  return {
    columns,
    rows: rows.slice(0, PREVIEW_ROWS),
    total: rows.length,
    failing: rows.filter(({ problem }) => problem).length,
  };
}

function problemOf(columns: string[], cells: string[]): string | null {
  if (cells.length !== columns.length)
    return `has ${cells.length} cells where the header has ${columns.length}`;
  const checked = z.safeParse(ProfileSheetRow, sheetRowJson(columns, cells, undefusedCell));
  return checked.success ? null : summarizeIssues(checked.error.issues);
}

/** Profiles as a CSV sheet an import takes back (their proxies without passwords, which the service never gives). */
export const sheetOf = (profiles: readonly Profile[]): string =>
  csvLine([...SHEET_COLUMNS]) +
  profiles
    .map(({ name, proxy, tags, notes }) => csvLine([name, proxy ?? '', tags.join(';'), notes]))
    .join('');
