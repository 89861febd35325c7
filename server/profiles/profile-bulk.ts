import { BULK_LIMITS, type BulkActionName } from '../../lib/api/bulk-limits';
import type { BulkRequest, BulkSelection } from '../../lib/api/inputs/bulk';
import { BULK_ACTS } from '../../lib/api/permissions';
import { mustMay } from '../accounts/permit';
import { queueBatch } from '../automation/batches';
import type { RunScheduler } from '../automation/scheduler';
import type { ProfileCookies } from '../cookies/profile-cookies';
import type { Activity } from '../core/activity';
import type { Clock } from '../core/clock';
import { InvalidInput, NotFound } from '../core/domain-errors';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { EventLog } from '../events/event-log';
import type { RoomQueue } from '../queue/room-queue';
import type { SessionManager } from '../sessions/manager';
import type { Actor } from '../store/accounts';
import type { Holder } from '../store/leases';
import { ownProfileIds, profileNames, selectProfileIds } from '../store/profile-bulk';
import { everything, type Reader } from '../store/scope';
import { findSessionOfProfile, LIVE_SESSION_STATUSES } from '../store/sessions';
import { type BulkOutcome, changeProxies, changeTags, type Outcomes } from './bulk-changes';
import { startOrWait } from './bulk-start';
import { deleteOwnProfile } from './profile-operations';

export interface BulkDeps {
  db: Database;
  clock: Clock;
  activity: Activity;
  events: EventLog;
  sessions: SessionManager;
  automation: RunScheduler;
  queue: Pick<RoomQueue, 'dispatch' | 'startOf'>;
  cookies: ProfileCookies;
  dataDir: string;
  log: Logger;
}

export interface BulkDone {
  selected: number;
  outcomes: BulkOutcome[];
  batchId?: string;
  proxiesCreated?: number;
  /** The selected profiles' names by id, read before the action, so that the answer names each. */
  names?: Map<string, string>;
}

/** Profiles a browser is started, stopped or read for at the same time: the machine's cores are shared. */
const AT_ONCE = 4;

/**
 * One action of a member on a selection of the workspace's profiles, each answered: the ids given, or the filter's
 * matches (found by the database, in the list's order). An action the member's role may not take, or a selection
 * beyond the action's most, is refused whole, before anything is done; ids that are no profile of the account, or
 * outside the member's scope, are not found and never touched.
 */
export async function actOnProfiles(
  deps: BulkDeps,
  actor: Actor & Reader,
  request: BulkRequest,
): Promise<BulkDone> {
  mustMay(actor.role, BULK_ACTS[request.action]);
  const selected = await selectionIds(deps.db, actor, request.select, request.action);
  const visible = actor.scope ? await ownProfileIds(deps.db, actor, selected) : null;
  const ids = visible ? selected.filter((id) => visible.has(id)) : selected;
  // Read before the action: a deleted profile is still named in the answer.
  const names = await profileNames(deps.db, actor.id, ids);
  const done = { ...(await actOn(deps, actor.id, actor.member, ids, request)), names };
  if (!visible) return done;
  const outcomes = new Map(done.outcomes.map((outcome) => [outcome.id, outcome]));
  return {
    ...done,
    selected: selected.length,
    outcomes: selected.map((id) => outcomes.get(id) ?? { id, error: new NotFound('profile') }),
  };
}

/** The action on the ids selected. */
async function actOn(
  deps: BulkDeps,
  accountId: string,
  holder: Holder,
  ids: string[],
  request: BulkRequest,
): Promise<BulkDone> {
  const done = (outcomes: Outcomes) => ids.map((id) => ({ id, ...(outcomes.get(id) ?? {}) }));
  switch (request.action) {
    case 'add_tags':
    case 'remove_tags': {
      const change = request.action === 'add_tags' ? { add: request.tags } : { remove: request.tags };
      return { selected: ids.length, outcomes: done(await changeTags(deps, accountId, ids, change)) };
    }
    case 'set_proxy':
    case 'clear_proxy': {
      const target =
        request.action === 'clear_proxy'
          ? { proxyId: null }
          : request.proxies
            ? { lines: request.proxies }
            : { proxyId: request.proxy_id ?? null };
      const { outcomes, created } = await changeProxies(deps, accountId, ids, target);
      return {
        selected: ids.length,
        outcomes: done(outcomes),
        ...('lines' in target ? { proxiesCreated: created } : {}),
      };
    }
    case 'run': {
      const { batchId, items } = await queueBatch(
        deps,
        accountId,
        holder,
        ids,
        request.script,
        request.name ?? null,
      );
      const outcomes = items.map((item) => ('runId' in item ? { id: item.id, runId: item.runId } : item));
      return { selected: ids.length, outcomes, batchId };
    }
    case 'start':
      return {
        selected: ids.length,
        outcomes: await startOrWait(deps, accountId, ids, request.headless, holder),
      };
    default:
      return { selected: ids.length, outcomes: await eachProfile(deps, accountId, holder, ids, request) };
  }
}

/** Stop, delete or cookies: one profile after another, a few at a time, in the selection's order. */
async function eachProfile(
  deps: BulkDeps,
  accountId: string,
  holder: Holder,
  ids: string[],
  request: Extract<BulkRequest, { action: 'stop' | 'delete' | 'export_cookies' }>,
): Promise<BulkOutcome[]> {
  const owned = await ownProfileIds(deps.db, everything(accountId), ids);
  const one = async (id: string): Promise<BulkOutcome> => {
    if (!owned.has(id)) return { id, error: new NotFound('profile') };
    try {
      switch (request.action) {
        case 'stop': {
          const live = await findSessionOfProfile(deps.db, accountId, id);
          if (live && (LIVE_SESSION_STATUSES as readonly string[]).includes(live.status))
            await deps.sessions.stop(live, 'user');
          return { id };
        }
        case 'delete':
          await deleteOwnProfile(deps, everything(accountId), id, request.force === true);
          return { id };
        case 'export_cookies':
          return { id, cookies: await deps.cookies.read(everything(accountId), id, holder) };
      }
    } catch (error) {
      return { id, error };
    }
  };
  const outcomes: BulkOutcome[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      outcomes[index] = await one(ids[index] as string);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, ids.length) }, worker));
  return outcomes;
}

/** The ids a selection names, each once, in order; more than the action may take is refused. */
async function selectionIds(
  db: Database,
  reader: Reader,
  select: BulkSelection,
  action: BulkActionName,
): Promise<string[]> {
  const most = BULK_LIMITS[action];
  const ids = select.ids
    ? [...new Set(select.ids)]
    : await selectProfileIds(db, reader, select.filter ?? {}, most);
  if (ids.length > most) throw tooMany(action, most, select.ids ? ids.length : null);
  return ids;
}

function tooMany(action: BulkActionName, most: number, count: number | null): InvalidInput {
  const held =
    count === null ? `more than ${most} profiles match this filter` : `${count} profiles are selected`;
  return new InvalidInput(
    'select',
    `must hold at most ${most} profiles for ${action}`,
    `Too many profiles for one request: ${held}, and ${action} takes at most ${most} at once. Narrow the selection or send it in parts.`,
  );
}
