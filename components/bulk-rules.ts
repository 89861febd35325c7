import type { Script } from '../lib/api/inputs/automation';
import type { BulkRequestInput, BulkSelection } from '../lib/api/inputs/bulk';
import { BULK_ACTS } from '../lib/api/permissions';
import type { Profile } from '../lib/api/schemas/profiles';
import type { PlanLimits, ProfileFilter } from '../lib/storage';
import type { May } from './may';

/** The bar's actions on a selection; each is one bulk request, some after a question. */
export type BulkAction = 'start' | 'stop' | 'delete' | 'proxy' | 'tags' | 'run' | 'cookies';
export const BULK_BAR: BulkAction[] = ['start', 'stop', 'delete', 'proxy', 'tags', 'run', 'cookies'];
/** Actions whose bar button says how many profiles it is for; the others open a question first. */
export const COUNTED: BulkAction[] = ['start', 'stop', 'delete'];

/** The service's bulk action each bar action sends (proxy sends set_proxy or clear_proxy, alike in rights). */
const SENDS: Record<BulkAction, keyof typeof BULK_ACTS> = {
  start: 'start',
  stop: 'stop',
  delete: 'delete',
  proxy: 'set_proxy',
  tags: 'add_tags',
  run: 'run',
  cookies: 'export_cookies',
};

/**
 * The bar's actions on a selection: those the key's role may take, less a Start or Stop for none of it.
 */
export const offeredActions = (selected: Selected, may: May): BulkAction[] =>
  BULK_BAR.filter(
    (action) =>
      may(BULK_ACTS[SENDS[action]]) && !(COUNTED.includes(action) && numberFor(selected, action) === 0),
  );

/** Every profile a list's filter matches, in the list's order, as a bulk action's selection. */
export const allMatching = ({ q, tag, status, sort }: ProfileFilter): BulkSelection => ({
  filter: { q: q?.trim() || undefined, tag, status, sort },
});

/** A selection as the bar sees it: what was picked, how many it holds, and what runs now. */
export interface Selected {
  selection: BulkSelection;
  count: number;
  /** The profiles picked one by one (empty for a filter). */
  picked: Profile[];
  /** The selection's profiles in the order shown, as far as they are read: what pasted lines go to. */
  order?: Profile[];
  /** Sessions running in the account now. */
  running: number;
  limits: PlanLimits | null | undefined;
}

/** Picked one by one, start and stop are for those not running and those running. */
const chosen = ({ picked }: Selected, action: BulkAction) =>
  picked.filter(({ status }) => (status === 'running') === (action === 'stop'));

const byIds = ({ selection }: Selected, action: BulkAction) =>
  selection.ids !== undefined && (action === 'start' || action === 'stop');

/**
 * How many profiles an action is for. Picked, start and stop count those it changes; for a filter, Stop counts
 * at most the sessions running (none when the filter is of idle ones), Start none when it is of running ones.
 */
export function numberFor(selected: Selected, action: BulkAction): number {
  if (byIds(selected, action)) return chosen(selected, action).length;
  const status = selected.selection.filter?.status;
  if (action === 'stop') return status === 'idle' ? 0 : Math.min(selected.count, selected.running);
  if (action === 'start' && status === 'running') return 0;
  return selected.count;
}

/** Sessions the plan has room for now (unbounded while the plan is not known). */
export const roomFor = ({ limits, running }: Selected): number =>
  limits ? Math.max(0, limits.sessionLimit - running) : Number.POSITIVE_INFINITY;

/** Whether a start waits partly for room: more to start than the plan has room for. */
export const startOutgrowsRoom = (selected: Selected): boolean =>
  numberFor(selected, 'start') > roomFor(selected);

/** What the person answered in an action's question. */
export interface Answer {
  /** The proxy's id, the script's name, or the tags typed with commas. */
  value: string;
  /** Proxy URLs pasted one a line. */
  pasted: string;
  scripts: Record<string, Script>;
  /** Tags removed rather than added. */
  removing?: boolean;
}

export const pastedLines = (pasted: string): string[] => pasted.split(/\r?\n/).filter((line) => line.trim());

export const typedTags = (value: string): string[] =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** The request an answered question sends; null while what it needs is missing. */
export function bulkRequest(selected: Selected, action: BulkAction, answer: Answer): BulkRequestInput | null {
  const select = byIds(selected, action)
    ? { ids: chosen(selected, action).map(({ id }) => id) }
    : selected.selection;
  if (select.ids?.length === 0) return null;
  if (action === 'proxy') {
    const lines = pastedLines(answer.pasted);
    if (lines.length)
      return lines.length === selected.count ? { select, action: 'set_proxy', proxies: lines } : null;
    return answer.value
      ? { select, action: 'set_proxy', proxy_id: answer.value }
      : { select, action: 'clear_proxy' };
  }
  if (action === 'tags') {
    const tags = typedTags(answer.value);
    return tags.length ? { select, action: answer.removing ? 'remove_tags' : 'add_tags', tags } : null;
  }
  if (action === 'run') {
    const script = answer.scripts[answer.value];
    return script ? { select, action: 'run', script, name: answer.value } : null;
  }
  if (action === 'cookies') return { select, action: 'export_cookies' };
  return { select, action, ...(action === 'delete' ? { force: true } : {}) };
}

/**
 * Whether Start goes without a question: it spends nothing worth asking about (the plan has no hourly limit) and
 * every profile starts now.
 */
export const startsWithoutAsking = (selected: Selected, unlimited: boolean): boolean =>
  unlimited && !startOutgrowsRoom(selected);

/** Lines a preview shows beside the names they go to. */
export const PREVIEW_LINES = 5;

/** The first pasted lines beside what each goes to, in the order shown: [name, line] while both last. */
export const firstPairs = (names: string[], lines: string[]): [string, string][] =>
  lines.slice(0, Math.min(PREVIEW_LINES, names.length)).map((line, index) => [names[index] as string, line]);
