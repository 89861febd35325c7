import type { ProfileSortName } from '../../lib/api/profile-sorts';
import { type MessageName, t } from '../../lib/i18n';
import { type Column, type ColumnId, type Layout, MAX_WIDTH, MIN_WIDTH, resize, widthOf } from './columns';

export const COLUMN_LABELS: Record<ColumnId, MessageName> = {
  name: 'columnName',
  status: 'columnStatus',
  tags: 'columnTags',
  proxy: 'columnProxy',
  last_used: 'columnLastUsed',
  notes: 'columnNotes',
  held_by: 'columnHeldBy',
  identity: 'columnIdentity',
};

/** The table's widths and order, which its header changes. */
export interface TableOrder {
  layout: Layout;
  onLayout: (layout: Layout) => void;
  sort: ProfileSortName | undefined;
  onSort: (column: Column) => void;
}

/** How far an arrow key moves a column's edge. */
const STEP = 16;

/**
 * The table's header: a click on a sortable column's name orders the list by it on the service (again, back to the
 * newest first); each column's right edge is dragged, or moved with the arrows, to resize it.
 */
export function TableHead({
  columns,
  layout,
  onLayout,
  sort,
  onSort,
  allShown,
  onAllShown,
}: TableOrder & {
  columns: Column[];
  allShown: boolean;
  onAllShown: (on: boolean) => void;
}) {
  function drag(event: PointerEvent, column: Column) {
    const handle = event.currentTarget as HTMLElement;
    const from = event.clientX - widthOf(layout, column);
    handle.setPointerCapture(event.pointerId);
    const move = (moved: PointerEvent) => onLayout(resize(layout, column, moved.clientX - from));
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', () => handle.removeEventListener('pointermove', move), {
      once: true,
    });
  }
  return (
    <thead>
      <tr>
        <th class="pick">
          <input
            type="checkbox"
            aria-label={t('selectAllShown')}
            checked={allShown}
            onInput={(event) => onAllShown(event.currentTarget.checked)}
          />
        </th>
        {columns.map((column) => {
          const label = t(COLUMN_LABELS[column.id]);
          const sorted = column.sort !== undefined && column.sort === sort;
          const order = column.sort === 'name' ? 'ascending' : 'descending';
          return (
            <th key={column.id} scope="col" aria-sort={sorted ? order : undefined}>
              {column.sort ? (
                <button type="button" class="sort" onClick={() => onSort(column)}>
                  {label}
                  {sorted ? (order === 'ascending' ? ' ▲' : ' ▼') : ''}
                </button>
              ) : (
                label
              )}
              {/* biome-ignore lint/a11y/useSemanticElements: a column's edge is a focusable separator, which <hr> cannot be */}
              <span
                class="edge"
                role="separator"
                tabIndex={0}
                aria-orientation="vertical"
                aria-label={t('resizeColumn', label)}
                aria-valuemin={MIN_WIDTH}
                aria-valuemax={MAX_WIDTH}
                aria-valuenow={widthOf(layout, column)}
                onPointerDown={(event) => drag(event, column)}
                onKeyDown={(event) => {
                  const by = { ArrowLeft: -STEP, ArrowRight: STEP }[event.key];
                  if (!by) return;
                  event.preventDefault();
                  onLayout(resize(layout, column, widthOf(layout, column) + by));
                }}
              />
            </th>
          );
        })}
        <th class="actions">
          <span class="visually-hidden">{t('columnActions')}</span>
        </th>
      </tr>
    </thead>
  );
}
