import { describe, expect, it } from 'vitest';
import { previewSheet, sheetOf } from '../../../entrypoints/manager/sheet-preview';
import type { Profile } from '../../../lib/api/schemas/profiles';

describe('a CSV sheet before it is imported', () => {
  it('shows the first rows, each with what the service will refuse in it, and counts them all', () => {
    const rows = Array.from({ length: 12 }, (_, n) => `Shop ${n},,shop;eu,`);
    const preview = previewSheet(
      ['name,proxy,tags,notes', ',,,no name', 'Bad proxy,ftp://x,,', 'Short,', ...rows].join('\n'),
    );
    if ('problem' in preview) throw new Error(preview.problem);
    expect(preview.total).toBe(15);
    expect(preview.failing).toBe(3);
    expect(preview.rows).toHaveLength(10);
    expect(preview.rows[0]?.problem).toMatch(/^name/);
    expect(preview.rows[1]?.problem).toMatch(/^proxy/);
    expect(preview.rows[2]?.problem).toBe('has 2 cells where the header has 4');
    expect(preview.rows[3]).toEqual({ line: 5, cells: ['Shop 0', '', 'shop;eu', ''], problem: null });
  });

  it('refuses a file whose header is not a sheet of profiles, or that cannot be read, as a whole', () => {
    expect(previewSheet('title,url\nx,y')).toEqual({
      problem: expect.stringMatching(/^The first line must name/),
    });
    expect(previewSheet('name\n"open')).toEqual({
      problem: expect.stringMatching(/^The CSV cannot be read: Line 2/),
    });
    expect(previewSheet('')).toEqual({ problem: expect.stringMatching(/^The file is empty/) });
  });

  it('writes profiles as a sheet the preview reads back the same, a formula defused', () => {
    const profiles = [
      { name: '=cmd()', proxy: 'http://u@10.0.0.1:3128', tags: ['a', 'b'], notes: 'one, two' },
      { name: 'Plain', proxy: null, tags: [], notes: '' },
    ] as Profile[];
    const text = sheetOf(profiles);
    expect(text.split('\r\n')[1]).toBe(`'=cmd(),http://u@10.0.0.1:3128,a;b,"one, two"`);
    const preview = previewSheet(text);
    if ('problem' in preview) throw new Error(preview.problem);
    expect(preview.failing).toBe(0);
    expect(preview.rows.map(({ cells }) => cells[2])).toEqual(['a;b', '']);
  });
});
