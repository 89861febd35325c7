/** CSV read as RFC 4180 writes it, and written so that no cell runs as a spreadsheet formula. */
import { describe, expect, it } from 'vitest';
import { CsvError, csvCell, parseCsv, undefusedCell } from '../../../lib/csv';

describe('CSV', () => {
  it('reads quoted cells with commas, doubled quotes and line breaks, and names each record’s line', () => {
    const text = '\uFEFFname,notes\r\n"Shop, EU","said ""hi""\nthen left"\n\nPlain,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['name', 'notes'] },
      { line: 2, cells: ['Shop, EU', 'said "hi"\nthen left'] },
      { line: 5, cells: ['Plain', ''] },
    ]);
  });

  it('refuses a quote that never closes or text after a closing quote, naming the line', () => {
    expect(() => parseCsv('name\n"open\nstill open')).toThrow(
      new CsvError(2, 'a quoted cell is never closed (a " is missing)'),
    );
    expect(() => parseCsv('name\n"a"b')).toThrow(/Line 2: text follows a closing quote/);
    expect(() => parseCsv('name\nab"c')).toThrow(/Line 2: a quote inside a cell/);
  });

  it('defuses every start a spreadsheet runs as a formula, and takes the apostrophe off again', () => {
    const formulas = [
      '=1+1',
      '+1',
      '-1',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '\nx',
      ' =1',
      '  @x',
      '＝1',
      '＋1',
      '－1',
      '＠x',
      "'=1",
    ];
    for (const text of formulas) {
      const cell = csvCell(text);
      const read = parseCsv(`${cell}\n`)[0]?.cells[0] as string;
      expect(read.startsWith("'"), JSON.stringify(text)).toBe(true);
      expect(undefusedCell(read)).toBe(text);
    }
    for (const text of ['plain', "it's", ' spaced', "'quoted"]) {
      expect(csvCell(text)).toBe(text);
      expect(undefusedCell(text)).toBe(text);
    }
    expect(csvCell(-1)).toBe('-1');
  });
});
