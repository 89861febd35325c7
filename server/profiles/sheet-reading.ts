import { ProfileSheetRow } from '../../lib/api/inputs/profile-sheet';
import { summarizeIssues, toFieldErrors } from '../../lib/api/issues';
import type { ImportedRow } from '../../lib/api/schemas/profile-import';
import { sheetColumns, sheetRowJson } from '../../lib/api/sheet-rows';
import { MAX_IMPORT_ROWS, SHEET_COLUMNS, type SheetFormat } from '../../lib/api/sheets';
import { z } from '../../lib/api/zod';
import { CsvError, parseCsv, undefusedCell } from '../../lib/csv';
import { InvalidInput } from '../core/domain-errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth';

/** A row of a sheet by its line in the file: the profile it asks for, or why it cannot be one. */
export type SheetRow = { line: number } & ({ row: ProfileSheetRow } | { refused: ImportedRow['problem'] });

const HEADER = SHEET_COLUMNS.join(',');

/**
 * The rows of an import as CSV or NDJSON, each checked. A file that cannot be read as a whole (empty, no header,
 * a broken quote, more than MAX_IMPORT_ROWS rows) is refused whole, before anything is made.
 */
export function readSheet(format: SheetFormat, text: string): SheetRow[] {
  if (text.trim() === '')
    throw wholeFile(
      `The file is empty: give ${format === 'csv' ? `the header line ${HEADER} and then ` : ''}one line per profile.`,
    );
  const values = format === 'csv' ? csvValues(text) : ndjsonValues(text);
  if (values.length > MAX_IMPORT_ROWS)
    throw wholeFile(
      `The file holds ${values.length.toLocaleString('en')} rows; one import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')}. Split it and import the parts.`,
    );
  if (values.length === 0)
    throw wholeFile('The file holds a header line but no rows: add one line per profile.');
  return values.map(({ line, value }) =>
    'refused' in value ? { line, ...value } : checked(line, value.json),
  );
}

type Value = { line: number; value: { json: unknown } | { refused: ImportedRow['problem'] } };

function csvValues(text: string): Value[] {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError)
      throw wholeFile(`The CSV cannot be read: ${error.message}. Nothing was imported.`);
    throw error;
  }
  const [header, ...rows] = records;
  const columns = sheetColumns(header?.cells);
  if (!Array.isArray(columns)) throw wholeFile(columns.problem);
  return rows.map(({ line, cells }) => {
    if (cells.length !== columns.length)
      return {
        line,
        value: { refused: refusal(`has ${cells.length} cells where the header has ${columns.length}`) },
      };
    return { line, value: { json: sheetRowJson(columns, cells, undefusedCell) } };
  });
}

function ndjsonValues(text: string): Value[] {
  const values: Value[] = [];
  for (const [index, source] of text.split('\n').entries()) {
    if (source.trim() === '') continue;
    const line = index + 1;
    if (nestsDeeperThan(source)) {
      values.push({ line, value: { refused: refusal(`nests more than ${MAX_JSON_DEPTH} levels deep`) } });
      continue;
    }
    try {
      values.push({ line, value: { json: JSON.parse(source) } });
    } catch (error) {
      values.push({ line, value: { refused: refusal(`is not JSON: ${(error as Error).message}`) } });
    }
  }
  return values;
}

function checked(line: number, json: unknown): SheetRow {
  if (holdsNul(json)) return { line, refused: refusal('must not contain U+0000 (the NUL character)') };
  const result = z.safeParse(ProfileSheetRow, json);
  if (result.success) return { line, row: result.data };
  return {
    line,
    refused: {
      status: 422,
      code: 'validation_failed',
      detail: `Line ${line}: ${summarizeIssues(result.error.issues)}`,
      errors: toFieldErrors(result.error.issues),
    },
  };
}

/** Whether text in a value (a key too) holds U+0000, which PostgreSQL cannot store; the value nests ≤ 64 deep. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\0') || holdsNul(item));
}

function refusal(problem: string): NonNullable<ImportedRow['problem']> {
  return { status: 422, code: 'validation_failed', detail: `This row ${problem}.` };
}

function wholeFile(detail: string): InvalidInput {
  return new InvalidInput('body', detail.replace(/^The /, '').replace(/\.$/, ''), detail);
}
