import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { BulkActions } from '../../components/BulkActions';
import { allMatching } from '../../components/bulk-rules';
import { useItem, useList, useSearchKey, useSettled, useTask } from '../../components/hooks';
import { Outcome } from '../../components/Outcome';
import { Problem } from '../../components/Problem';
import { proxyText } from '../../components/profile-proxy';
import { SearchBox } from '../../components/SearchBox';
import { ServiceDownBanner } from '../../components/ServiceDownBanner';
import { Shortcuts } from '../../components/Shortcuts';
import { StatusFilter } from '../../components/StatusFilter';
import type { ProfileUpdate } from '../../lib/api/inputs/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import {
  cachedProxies,
  cachedSessions,
  connection,
  type ProfileFilter,
  waitingStarts,
} from '../../lib/storage';
import { BatchCard } from '../popup/BatchCard';
import { BatchList } from '../popup/BatchList';
import { BatchRuns } from './BatchRuns';
import { ColumnsMenu } from './ColumnsMenu';
import { DEFAULT_LAYOUT, type Layout, sortAfterClick } from './columns';
import { changeOf, type Edit, type EditableField, editOf } from './edits';
import { ProfileTable } from './ProfileTable';
import { SheetTools } from './SheetTools';
import { NOTHING, type Selection, selectedCount } from './selection';
import { COLUMN_LABELS } from './TableHead';
import { useProfilePages } from './use-pages';

const TYPING_PAUSE_MS = 300;

/**
 * Every profile of the account in one table, in a tab: search, status and the order on the service; columns shown,
 * hidden and resized; a spreadsheet's selection with the popup's bulk actions; names, tags and notes edited in
 * place with Undo; every batch, newest first, and the one chosen with its failed runs, retry and export. It reaches
 * the worker as the popup does, and follows the service’s events while open.
 */
export function Manager() {
  const saved = useItem(connection);
  const apiKey = saved?.apiKey;
  useEffect(() => (apiKey ? connector.followEvents() : undefined), [apiKey]);
  if (!saved) return null;
  if (!apiKey)
    return (
      <main>
        <h1>{t('managerTitle')}</h1>
        <p>{t('managerNeedsKey')}</p>
      </main>
    );
  return <Table />;
}

function Table() {
  const { list: proxies } = useList(cachedProxies, () => connector.send({ type: 'proxies.refresh' }), true);
  const sessions = useItem(cachedSessions);
  const waiting = useItem(waitingStarts);
  const [typed, setTyped] = useState<ProfileFilter>({});
  const settled = useSettled(typed, TYPING_PAUSE_MS);
  // One object per filter asked for, so that the pages are read again only when it changes.
  const filter = useMemo(() => settled, [settled.q, settled.status, settled.sort, settled.tag]);
  const pages = useProfilePages(filter);
  const [layout, setLayout] = useState<Layout>(DEFAULT_LAYOUT);
  const [selection, setSelection] = useState<Selection>(NOTHING);
  const [editing, setEditing] = useState<{ id: string; field: EditableField } | null>(null);
  const [edits, setEdits] = useState<Edit[]>([]);
  const [outcome, setOutcome] = useState('');
  const saving = useTask();
  const search = useRef<HTMLInputElement>(null);
  useSearchKey(search, true);
  useEffect(() => setSelection(NOTHING), [filter]);

  const total = pages.total ?? 0;
  const count = selectedCount(selection, total);
  const picked = selection.all ? [] : pages.rows.filter(({ id }) => selection.ids.has(id));
  const runningIds = sessions && new Set(sessions.data.map(({ profile_id }) => profile_id));
  const change = (part: ProfileFilter) => setTyped((current) => ({ ...current, ...part }));

  /** Changes one field of a profile in place, or puts the last change back (`undo`). */
  async function apply(edit: Edit, changes: ProfileUpdate, undo: boolean) {
    setEditing(null);
    const reply = await saving.run(() =>
      connector.send({ type: 'profile.update', profileId: edit.profileId, changes }),
    );
    if (!reply.ok) return;
    pages.replace(reply.value);
    setEdits((done) => (undo ? done.slice(0, -1) : [...done, edit]));
    setOutcome(t(undo ? 'editUndone' : 'editSaved', t(COLUMN_LABELS[edit.field]), reply.value.name));
  }

  return (
    <>
      <header class="bar manager-head">
        <h1>{t('managerTitle')}</h1>
        <SearchBox
          field={search}
          label={t('searchProfiles')}
          hint={t('searchProfilesHint')}
          value={typed.q ?? ''}
          onText={(q) => change({ q })}
        />
        <StatusFilter status={typed.status} onStatus={(status) => change({ status })} />
        <SheetTools
          filter={filter}
          picked={picked}
          onImported={(said) => {
            setOutcome(said);
            pages.reload();
          }}
        />
        <ColumnsMenu layout={layout} onLayout={setLayout} />
        <details class="keys">
          <summary>{t('batchesTitle')}</summary>
          <div class="stack batches">
            <BatchList />
            <BatchCard runsApart />
            <BatchRuns />
          </div>
        </details>
        <details class="keys">
          <summary>{t('keyboardShortcuts')}</summary>
          <p>{t('managerKeys')}</p>
          <Shortcuts />
        </details>
      </header>
      <main class="manager">
        <ServiceDownBanner />
        <div class="bar">
          <span role="status" class="grow" aria-busy={pages.busy}>
            {pages.total === null
              ? t('loadingProfiles')
              : t(total === 1 ? 'profilesOne' : 'profilesTotal', total)}
          </span>
          {edits.length > 0 && (
            <button
              type="button"
              disabled={saving.busy}
              onClick={() => {
                const last = edits.at(-1) as Edit;
                void apply(last, last.undo, true);
              }}
            >
              {t('undo')}
            </button>
          )}
        </div>
        {/* The bar keeps its place when nothing is selected, so that a click that selects moves no row. */}
        <div class="bulk-slot">
          <BulkActions
            selection={selection.all ? allMatching(filter) : { ids: picked.map(({ id }) => id) }}
            count={count}
            picked={picked}
            shown={pages.rows}
            onDone={(said) => {
              setSelection(NOTHING);
              setOutcome(said);
              pages.reload();
            }}
          />
        </div>
        {outcome && <Outcome text={outcome} />}
        <Problem error={saving.error} />
        <Problem error={pages.error} retry={pages.reload} />
        <ProfileTable
          rows={pages.rows}
          total={Math.max(total, pages.rows.length)}
          want={pages.want}
          layout={layout}
          onLayout={setLayout}
          sort={filter.sort}
          onSort={(column) => {
            const sort = sortAfterClick(column, filter.sort);
            change({ sort: sort === 'created' ? undefined : sort });
          }}
          selection={selection}
          onSelection={setSelection}
          isRunning={(profile) => (runningIds ? runningIds.has(profile.id) : profile.status === 'running')}
          isWaiting={(profile) => profile.id in (waiting ?? {})}
          proxyOf={(profile) => proxyText(profile, proxies)}
          editing={editing}
          onEdit={setEditing}
          onSave={(profile, field, text) => void apply(editOf(profile, field), changeOf(field, text), false)}
        />
      </main>
    </>
  );
}
