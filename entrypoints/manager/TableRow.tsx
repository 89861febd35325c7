import { useTask } from '../../components/hooks';
import { deviceText } from '../../components/identity-text';
import { Problem } from '../../components/Problem';
import { RowMenu } from '../../components/RowMenu';
import { StartStop } from '../../components/StartStop';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { exactly, fromNow } from '../../lib/when';
import type { Column, ColumnId } from './columns';
import { EditCell } from './EditCell';
import { type EditableField, textOf } from './edits';
import { COLUMN_LABELS } from './TableHead';

const EDITABLE: readonly ColumnId[] = ['name', 'tags', 'notes'];
const isEditable = (id: ColumnId): id is EditableField => EDITABLE.includes(id);

export interface RowProps {
  profile: Profile;
  /** Its place in the whole list, from 1 (the header is row 1). */
  index: number;
  columns: Column[];
  running: boolean;
  /** Its start waits in the service's line for a free browser. */
  waiting: boolean;
  proxy: string;
  selected: boolean;
  /** The row that is the table's one Tab stop. */
  current: boolean;
  /** The cell being edited in place, if it is in this row. */
  editing: EditableField | null;
  onClick: (event: MouseEvent) => void;
  onCheck: () => void;
  onEdit: (field: EditableField | null) => void;
  onSave: (field: EditableField, text: string) => void;
}

/** One profile as a table row: a cell a column, name, tags and notes edited in place on a double click. */
export function TableRow(props: RowProps) {
  const { profile, index, columns, running, waiting, proxy, selected, current, editing } = props;
  const task = useTask();
  const { name } = profile;
  const cell = (id: ColumnId) => {
    if (editing === id && isEditable(id))
      return (
        <EditCell
          label={t('editCell', t(COLUMN_LABELS[id]), name)}
          text={textOf(profile, id)}
          onSave={(text) => props.onSave(id, text)}
          onCancel={() => props.onEdit(null)}
        />
      );
    if (id === 'name') return <strong>{name}</strong>;
    if (id === 'status')
      return (
        <span class={running ? 'status on' : 'status'}>
          {t(running ? 'running' : waiting ? 'waitingForRoom' : 'idle')}
        </span>
      );
    if (id === 'tags') return profile.tags.map((tag) => `#${tag}`).join(' ');
    if (id === 'proxy') return proxy;
    if (id === 'notes') return profile.notes;
    if (id === 'held_by') return profile.held_by?.member.name ?? '';
    if (id === 'identity') return profile.identity ? deviceText(profile.identity) : '';
    return profile.last_used_at ? (
      <time dateTime={profile.last_used_at} title={exactly(profile.last_used_at)}>
        {fromNow(profile.last_used_at)}
      </time>
    ) : (
      t('neverUsed')
    );
  };
  return (
    <tr
      aria-rowindex={index}
      class={selected ? 'selected' : undefined}
      tabIndex={current ? 0 : -1}
      data-id={profile.id}
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('button, input, .menu')) props.onClick(event);
      }}
    >
      <td class="pick">
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={t('selectNamed', name)}
          checked={selected}
          onInput={props.onCheck}
        />
      </td>
      {columns.map(({ id }) => (
        <td
          key={id}
          title={isEditable(id) && editing !== id ? textOf(profile, id) || undefined : undefined}
          onDblClick={() => isEditable(id) && props.onEdit(id)}
        >
          {cell(id)}
        </td>
      ))}
      <td class="actions">
        <StartStop profile={profile} running={running} task={task} waiting={waiting} />
        <RowMenu label={t('moreActionsNamed', name)}>
          {EDITABLE.map((id) => (
            <button key={id} type="button" onClick={() => props.onEdit(id as EditableField)}>
              {t('editCell', t(COLUMN_LABELS[id]), name)}
            </button>
          ))}
          <button
            type="button"
            disabled={task.busy}
            aria-label={t('cloneNamed', name)}
            onClick={() => task.run(() => connector.send({ type: 'profile.clone', profileId: profile.id }))}
          >
            {t('clone')}
          </button>
        </RowMenu>
        <Problem error={task.error} />
      </td>
    </tr>
  );
}
