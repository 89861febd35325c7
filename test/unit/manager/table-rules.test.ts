import { describe, expect, it } from 'vitest';
import {
  COLUMNS,
  DEFAULT_LAYOUT,
  resize,
  shownColumns,
  sortAfterClick,
  toggleColumn,
} from '../../../entrypoints/manager/columns';
import { changeOf, editOf, textOf } from '../../../entrypoints/manager/edits';
import {
  clickRow,
  extendTo,
  isSelected,
  NOTHING,
  selectedCount,
  toggleRow,
} from '../../../entrypoints/manager/selection';
import { scrollToShow, visibleRows } from '../../../entrypoints/manager/viewport';
import type { Profile } from '../../../lib/api/schemas/profiles';

const rows = Array.from({ length: 20 }, (_, n) => `p${n}`);
const plain = { range: false, toggle: false };
const ids = (selection: { ids: ReadonlySet<string> }) => [...selection.ids].sort();

describe('the table selection', () => {
  it('selects one row on a click, a range from it on Shift+click, and one more or less on Ctrl/Cmd+click', () => {
    const one = clickRow(NOTHING, rows, 2, plain);
    expect(ids(one)).toEqual(['p2']);
    const range = clickRow(one, rows, 5, { range: true, toggle: false });
    expect(ids(range)).toEqual(['p2', 'p3', 'p4', 'p5']);
    const upwards = clickRow(range, rows, 0, { range: true, toggle: false });
    expect(ids(upwards)).toEqual(['p0', 'p1', 'p2']);
    const more = clickRow(range, rows, 9, { range: false, toggle: true });
    expect(selectedCount(more, 20)).toBe(5);
    const less = clickRow(more, rows, 3, { range: false, toggle: true });
    expect(ids(less)).toEqual(['p2', 'p4', 'p5', 'p9']);
    // Shift with Ctrl adds the range to what was selected, from the last row clicked.
    expect(ids(clickRow(less, rows, 1, { range: true, toggle: true }))).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p9',
    ]);
  });

  it('counts every match when all matching are selected, and starts from the rows read when one is clicked', () => {
    const all = { ids: new Set<string>(), all: true, anchor: null };
    expect(selectedCount(all, 1000)).toBe(1000);
    expect(isSelected(all, 'anything')).toBe(true);
    const unticked = toggleRow(all, rows, 4);
    expect(unticked.all).toBe(false);
    expect(selectedCount(unticked, 1000)).toBe(19);
  });

  it('extends a range with the keyboard from the row the focus left', () => {
    expect(ids(extendTo(NOTHING, rows, 3, 5))).toEqual(['p3', 'p4', 'p5']);
    expect(clickRow(NOTHING, rows, 99, plain)).toBe(NOTHING);
  });
});

describe('the rows on screen', () => {
  it('draws the rows in view and a few more, never past the list', () => {
    expect(visibleRows(0, 600, 30, 10_000)).toEqual({ start: 0, end: 28 });
    expect(visibleRows(300_000, 600, 30, 10_000)).toEqual({ start: 9992, end: 10_000 });
    expect(visibleRows(3000, 600, 30, 10_000)).toEqual({ start: 92, end: 128 });
  });

  it('scrolls only as far as brings a row whole into view', () => {
    expect(scrollToShow(5, 0, 600, 30)).toBe(0);
    expect(scrollToShow(25, 0, 600, 30)).toBe(180);
    expect(scrollToShow(2, 300, 600, 30)).toBe(60);
  });
});

describe('the columns', () => {
  it('hides and shows a column but never the name, and keeps widths within bounds', () => {
    const hidden = toggleColumn(DEFAULT_LAYOUT, 'notes', false);
    expect(shownColumns(hidden).map(({ id }) => id)).not.toContain('notes');
    expect(toggleColumn(hidden, 'name', false)).toBe(hidden);
    expect(shownColumns(toggleColumn(hidden, 'notes', true))).toHaveLength(COLUMNS.length);
    const name = COLUMNS[0] as (typeof COLUMNS)[number];
    expect(resize(DEFAULT_LAYOUT, name, 5).widths.name).toBe(60);
    expect(resize(DEFAULT_LAYOUT, name, 5000).widths.name).toBe(800);
  });

  it('sorts by a header, and back to the newest first on a second click', () => {
    const lastUsed = COLUMNS.find(({ id }) => id === 'last_used') as (typeof COLUMNS)[number];
    expect(sortAfterClick(lastUsed, undefined)).toBe('last_used');
    expect(sortAfterClick(lastUsed, 'last_used')).toBe('created');
  });
});

describe('edits in place', () => {
  const profile = { id: 'p1', name: 'Shop', tags: ['a', 'b'], notes: 'old' } as Profile;

  it('turns a cell text into the change, and remembers what puts it back', () => {
    expect(textOf(profile, 'tags')).toBe('a, b');
    expect(changeOf('tags', ' #a, c,, a ')).toEqual({ tags: ['a', 'c'] });
    expect(changeOf('name', '  New name ')).toEqual({ name: 'New name' });
    expect(changeOf('notes', ' spaced ')).toEqual({ notes: ' spaced ' });
    expect(editOf(profile, 'tags').undo).toEqual({ tags: ['a', 'b'] });
    expect(editOf(profile, 'notes')).toEqual({
      profileId: 'p1',
      name: 'Shop',
      field: 'notes',
      undo: { notes: 'old' },
    });
  });
});
