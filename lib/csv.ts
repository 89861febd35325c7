/** CSV as RFC 4180 writes it, read and written so that a spreadsheet cannot take a cell for a formula. */

/** A record of a CSV text and the line it starts on (1 is the first). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class CsvError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Line ${line}: ${message}`);
  }
}

/**
 * What a spreadsheet runs as a formula (OWASP: CSV injection): =, +, -, @ or their full-width forms, after any
 * spaces or line breaks; or a tab, CR or LF first. Apostrophes already in front count, so that the one added can
 * be taken off again exactly.
 */
const FORMULA = /^'*(?:[\t\r\n]|[ \t\r\n\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/**
 * One cell: quoted when it holds a quote, comma or line break. Text that a spreadsheet would take for a formula
 * starts with an apostrophe, so that it cannot run on the machine of whoever opens the file. Numbers, booleans
 * and objects are written as JSON: none can begin a formula (a negative number is a number).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: unknown[]) => `${values.map(csvCell).join(',')}\r\n`;

/** A cell as csvCell wrote it, the apostrophe it added taken off. */
export function undefusedCell(text: string): string {
  return text.startsWith("'") && FORMULA.test(text) ? text.slice(1) : text;
}

/**
 * The records of a CSV text: cells split by commas, quoted cells holding commas, quotes ("") and line breaks,
 * lines ending in CRLF or LF, blank lines skipped, a byte order mark ignored. A quote that does not close, or
 * text after a closing quote, is a CsvError naming its line.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"' && cell === '') {
      const opened = line;
      index++;
      for (;;) {
        if (index >= text.length)
          throw new CsvError(opened, 'a quoted cell is never closed (a " is missing)');
        const inner = text[index] as string;
        if (inner === '"' && text[index + 1] === '"') {
          cell += '"';
          index += 2;
        } else if (inner === '"') {
          index++;
          break;
        } else {
          if (inner === '\n') line++;
          cell += inner;
          index++;
        }
      }
      const after = text[index];
      if (after !== undefined && after !== ',' && after !== '\n' && after !== '\r')
        throw new CsvError(line, 'text follows a closing quote (a quote inside a cell is written "")');
      continue;
    }
    index++;
    if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index] === '\n') index++;
      endRecord();
      line++;
      start = line;
    } else if (char === '"') {
      throw new CsvError(line, 'a quote inside a cell that does not start with one (quote the whole cell)');
    } else cell += char;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
