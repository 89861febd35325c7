import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { shownColumns, widthOf } from './columns';
import type { EditableField } from './edits';
import { clickRow, extendTo, isSelected, NOTHING, type Selection, toggleRow } from './selection';
import { TableHead, type TableOrder } from './TableHead';
import { TableRow } from './TableRow';
import { scrollToShow, visibleRows } from './viewport';

/** Every row is this tall, so that the rows on screen follow from the scroll position alone. */
export const ROW_HEIGHT = 30;
/** The index in the list of the row `target` is in; the header is row 1 (aria-rowindex counts from 1). */
function rowOf(target: EventTarget | null): number | undefined {
  const index = Number((target as HTMLElement | null)?.closest?.('tr')?.getAttribute('aria-rowindex'));
  return index >= 2 ? index - 2 : undefined;
}

interface TableProps extends TableOrder {
  rows: Profile[];
  /** Every profile the filter matches; the rows not read yet are empty space until scrolled to. */
  total: number;
  want: (count: number) => void;
  selection: Selection;
  onSelection: (selection: Selection) => void;
  isRunning: (profile: Profile) => boolean;
  /** Its start waits in the service's line for a free browser. */
  isWaiting: (profile: Profile) => boolean;
  proxyOf: (profile: Profile) => string;
  editing: { id: string; field: EditableField } | null;
  onEdit: (editing: { id: string; field: EditableField } | null) => void;
  onSave: (profile: Profile, field: EditableField, text: string) => void;
}

/**
 * Every profile in a table that draws only the rows on screen. Arrows, Home and End move the current row (Shift with
 * them selects the range), Space selects it, Enter opens its menu (which edits its cells).
 */
export function ProfileTable(props: TableProps) {
  const { rows, total, layout, selection, onSelection } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const [current, setCurrent] = useState(0);
  const focusCurrent = useRef(false);
  const columns = shownColumns(layout);
  const { start, end } = visibleRows(view.top, view.height - ROW_HEIGHT, ROW_HEIGHT, total);
  const drawn = rows.slice(start, Math.min(end, rows.length));
  const ids = rows.map(({ id }) => id);

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setView({ top: box.scrollTop, height: box.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  useEffect(() => props.want(end), [end, rows.length]);
  useEffect(() => {
    if (!focusCurrent.current) return;
    focusCurrent.current = false;
    scroller.current?.querySelector<HTMLElement>(`tr[aria-rowindex="${current + 2}"]`)?.focus();
  });

  function moveTo(from: number, index: number, extend: boolean) {
    const to = Math.max(0, Math.min(rows.length - 1, index));
    if (extend) onSelection(extendTo(selection, ids, from, to));
    const box = scroller.current;
    if (box) box.scrollTop = scrollToShow(to, box.scrollTop, box.clientHeight - ROW_HEIGHT, ROW_HEIGHT);
    setCurrent(to);
    // A row already drawn takes the focus now; one scrolled to, once it is drawn.
    const drawnRow = box?.querySelector<HTMLElement>(`tr[aria-rowindex="${to + 2}"]`);
    if (drawnRow) drawnRow.focus();
    else focusCurrent.current = true;
  }

  function onKeyDown(event: KeyboardEvent) {
    if ((event.target as HTMLElement).closest('input, .menu-items, .confirm')) return;
    // The keys act on the row that has the focus.
    const current = rowOf(event.target) ?? 0;
    const moves: Record<string, number> = {
      ArrowUp: current - 1,
      ArrowDown: current + 1,
      Home: 0,
      End: rows.length - 1,
    };
    const to = moves[event.key];
    if (to !== undefined) moveTo(current, to, event.shiftKey);
    else if (event.key === ' ') onSelection(toggleRow(selection, ids, current));
    else if (event.key === 'Enter')
      (event.target as HTMLElement).closest('tr')?.querySelector<HTMLElement>('.menu > button')?.click();
    else if (event.key === 'Escape') onSelection(NOTHING);
    else return;
    event.preventDefault();
  }

  const tableWidth = columns.reduce((sum, column) => sum + widthOf(layout, column), 0);
  return (
    <div
      class="table-box"
      ref={scroller}
      onScroll={(event) =>
        setView({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })
      }
    >
      <table
        class="profiles"
        aria-label={t('profiles')}
        aria-rowcount={total + 1}
        style={{ width: `calc(${tableWidth}px + 11rem)` }}
      >
        <colgroup>
          <col class="pick" />
          {columns.map((column) => (
            <col key={column.id} style={{ width: `${widthOf(layout, column)}px` }} />
          ))}
          <col class="actions" />
        </colgroup>
        <TableHead
          columns={columns}
          layout={layout}
          onLayout={props.onLayout}
          sort={props.sort}
          onSort={props.onSort}
          allShown={selection.all}
          onAllShown={(on) => onSelection(on ? { ids: new Set(), all: true, anchor: null } : NOTHING)}
        />
        <tbody onKeyDown={onKeyDown} onFocusIn={(event) => setCurrent(rowOf(event.target) ?? current)}>
          {start > 0 && (
            <tr class="spacer" style={{ height: `${start * ROW_HEIGHT}px` }}>
              <td colSpan={columns.length + 2} />
            </tr>
          )}
          {drawn.map((profile, offset) => {
            const index = start + offset;
            return (
              <TableRow
                key={profile.id}
                profile={profile}
                index={index + 2}
                columns={columns}
                running={props.isRunning(profile)}
                waiting={props.isWaiting(profile)}
                proxy={props.proxyOf(profile)}
                selected={isSelected(selection, profile.id)}
                current={index === Math.min(current, rows.length - 1)}
                editing={props.editing?.id === profile.id ? props.editing.field : null}
                onClick={(event) => {
                  setCurrent(index);
                  onSelection(
                    clickRow(selection, ids, index, {
                      range: event.shiftKey,
                      toggle: event.ctrlKey || event.metaKey,
                    }),
                  );
                }}
                onCheck={() => {
                  setCurrent(index);
                  onSelection(toggleRow(selection, ids, index));
                }}
                onEdit={(field) => props.onEdit(field && { id: profile.id, field })}
                onSave={(field, text) => props.onSave(profile, field, text)}
              />
            );
          })}
          {total > start + drawn.length && (
            <tr class="spacer" style={{ height: `${(total - start - drawn.length) * ROW_HEIGHT}px` }}>
              <td colSpan={columns.length + 2} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
