import type { ProfileSortName } from '../../lib/api/profile-sorts';

export type ColumnId = 'name' | 'status' | 'tags' | 'proxy' | 'last_used' | 'notes' | 'held_by' | 'identity';

export interface Column {
  id: ColumnId;
  /** Its starting width, in px. */
  width: number;
  /** The service's order a click on its header asks for. */
  sort?: ProfileSortName;
}

export const COLUMNS: readonly Column[] = [
  { id: 'name', width: 220, sort: 'name' },
  { id: 'status', width: 90, sort: 'status' },
  { id: 'tags', width: 180 },
  { id: 'proxy', width: 200 },
  { id: 'last_used', width: 130, sort: 'last_used' },
  { id: 'notes', width: 220 },
  { id: 'held_by', width: 140 },
  { id: 'identity', width: 260 },
];

export const MIN_WIDTH = 60;
export const MAX_WIDTH = 800;

/** Which columns are shown and how wide each is; the name is always shown. */
export interface Layout {
  hidden: ColumnId[];
  widths: Partial<Record<ColumnId, number>>;
}

export const DEFAULT_LAYOUT: Layout = { hidden: [], widths: {} };

export const widthOf = (layout: Layout, column: Column): number => layout.widths[column.id] ?? column.width;

export const shownColumns = (layout: Layout): Column[] =>
  COLUMNS.filter(({ id }) => id === 'name' || !layout.hidden.includes(id));

export function toggleColumn(layout: Layout, id: ColumnId, shown: boolean): Layout {
  if (id === 'name') return layout;
  const hidden = layout.hidden.filter((other) => other !== id);
  return { ...layout, hidden: shown ? hidden : [...hidden, id] };
}

export function resize(layout: Layout, column: Column, width: number): Layout {
  const clamped = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
  return { ...layout, widths: { ...layout.widths, [column.id]: clamped } };
}

/** What a click on a column's header asks for: its order, or back to the newest first if it is the one in force. */
export const sortAfterClick = (column: Column, current: ProfileSortName | undefined): ProfileSortName =>
  column.sort && column.sort !== current ? column.sort : 'created';
