import { t } from '../../lib/i18n';
import { COLUMNS, type Layout, toggleColumn } from './columns';
import { COLUMN_LABELS } from './TableHead';

/** Which columns the table shows, a checkbox each; the name is always shown. */
export function ColumnsMenu({ layout, onLayout }: { layout: Layout; onLayout: (layout: Layout) => void }) {
  return (
    <details class="columns">
      <summary>{t('columns')}</summary>
      <fieldset>
        <legend class="visually-hidden">{t('columnsShown')}</legend>
        {COLUMNS.filter(({ id }) => id !== 'name').map(({ id }) => (
          <label key={id} class="check">
            <input
              type="checkbox"
              checked={!layout.hidden.includes(id)}
              onInput={(event) => onLayout(toggleColumn(layout, id, event.currentTarget.checked))}
            />
            {t(COLUMN_LABELS[id])}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
