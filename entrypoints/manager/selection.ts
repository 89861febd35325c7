/**
 * A spreadsheet's selection of the table's rows: ids picked one by one (a click, Ctrl/Cmd+click, Shift+click for a
 * range from the last row clicked), or every profile the filter matches, which the service finds itself.
 */
export interface Selection {
  ids: ReadonlySet<string>;
  /** Every profile the filter matches, loaded or not. */
  all: boolean;
  /** The row a Shift+click's range starts from. */
  anchor: number | null;
}

export const NOTHING: Selection = { ids: new Set(), all: false, anchor: null };

/** How a row was clicked: with Shift (a range), with Ctrl or Cmd (one row more or less), or plainly. */
export interface Modifiers {
  range: boolean;
  toggle: boolean;
}

/**
 * The selection after a click on the row at `index` of `rows` (the loaded ids in the table's order): a plain click
 * selects that row alone, Ctrl/Cmd adds or removes it, Shift selects from the anchor to it (added to the rest
 * with Ctrl/Cmd as well). A click while all matching are selected starts from the loaded rows.
 */
export function clickRow(
  selection: Selection,
  rows: readonly string[],
  index: number,
  { range, toggle }: Modifiers,
): Selection {
  const id = rows[index];
  if (id === undefined) return selection;
  const ids = selection.all ? new Set(rows) : new Set(selection.ids);
  if (range && selection.anchor !== null) {
    const [from, to] = [Math.min(selection.anchor, index), Math.max(selection.anchor, index)];
    const span = rows.slice(from, to + 1);
    return { ids: new Set(toggle ? [...ids, ...span] : span), all: false, anchor: selection.anchor };
  }
  if (toggle) {
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, all: false, anchor: index };
  }
  return { ids: new Set([id]), all: false, anchor: index };
}

/** Space or a row's checkbox: that row in or out, the others as they were. */
export const toggleRow = (selection: Selection, rows: readonly string[], index: number): Selection =>
  clickRow(selection, rows, index, { range: false, toggle: true });

/** Shift+Up or Shift+Down: the range from the anchor (the row the focus left, if none) to `index`. */
export function extendTo(
  selection: Selection,
  rows: readonly string[],
  from: number,
  index: number,
): Selection {
  const anchored = selection.anchor === null ? { ...selection, anchor: from } : selection;
  return clickRow(anchored, rows, index, { range: true, toggle: false });
}

/** How many are selected: every match when all are, else the ids picked. */
export const selectedCount = (selection: Selection, total: number): number =>
  selection.all ? total : selection.ids.size;

/** Whether the row is selected. */
export const isSelected = (selection: Selection, id: string): boolean =>
  selection.all || selection.ids.has(id);
