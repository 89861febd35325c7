import { HOURLY_LIMITS } from '../accounts/plans';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Clock } from '../core/clock';
import { formatWait } from '../core/wait';
import type { Queryable } from '../db/driver';
import type { Handoff } from '../handoff/handoff';
import type { SessionManager } from '../sessions/manager';
import { findPlan } from '../store/accounts';
import { findOpenRequest } from '../store/help-requests';
import { countRequest } from '../store/request-counts';
import { everything } from '../store/scope';
import { findSessionOfSignedAddress } from '../store/sessions';
import type { LiveAddress, LiveTokens } from './live-tokens';
import type { ViewerSession } from './screencast-viewer';

/** Whether the session is running, on any node: a live view address of any other one opens nothing. */
export async function isSessionRunning(db: Queryable, sessionId: string): Promise<boolean> {
  const [row] = await db.query<{ status: string }>('select status from sessions where id = $1', [sessionId]);
  return row?.status === 'running';
}

/**
 * Counts a live view's opening as one request of its account's hourly limit (the address carries no key, so
 * the account is the session's): null when counted, else the sentence that refuses it.
 */
export async function countViewOpening(
  db: Queryable,
  clock: Clock,
  sessionId: string,
): Promise<string | null> {
  const [row] = await db.query<{ account_id: string }>('select account_id from sessions where id = $1', [
    sessionId,
  ]);
  const plan = row ? await findPlan(db, row.account_id) : null;
  if (!row || !plan) return 'This session no longer exists.';
  const limit = HOURLY_LIMITS[plan];
  if (limit === null) return null;
  const nowMs = clock.now().getTime();
  const counted = await countRequest(db, row.account_id, nowMs, limit);
  if (counted.allowed) return null;
  const wait = Math.max(1, Math.ceil((counted.oldestLeavesAtMs - nowMs) / 1000));
  return `The ${plan} plan allows ${limit} requests an hour; the live view can open again in ${formatWait(wait)}.`;
}

/** What the viewer's bar shows of the session: its profile's name, its status, and (to control) its view-only path. */
export interface ViewerBar {
  type: 'session';
  profile: string | null;
  status: string;
  view_only_path: string | null;
}

export interface LiveSessionDeps {
  db: Queryable;
  tokens: LiveTokens;
  sessions: Pick<SessionManager, 'activeTabOf' | 'egressRefusalOf' | 'stop'>;
  handoff: Pick<Handoff, 'answer'>;
}

/**
 * The session a live view address opens, as its viewer sees it (the bar) and acts on it. Its Stop stops the
 * session as its owner's Stop would: the address that controls is the owner's credential, and a view-only one
 * never reaches it (screencast-viewer.ts refuses every control message of a view-only viewer).
 */
export async function viewerSessionOf(
  deps: LiveSessionDeps,
  devtools: CdpMultiplexer,
  address: LiveAddress,
): Promise<{
  session: ViewerSession;
  bar: ViewerBar;
  owner: { accountId: string; sessionId: string };
} | null> {
  const { sessionId, mode } = address;
  const row = await findSessionOfSignedAddress(deps.db, sessionId);
  if (!row) return null;
  const session: ViewerSession = {
    devtools,
    mode,
    activeTab: () => deps.sessions.activeTabOf(sessionId),
    egressRefusalOf: (host) => deps.sessions.egressRefusalOf(sessionId, host),
    async stop() {
      if (mode !== 'control') return;
      const now = await findSessionOfSignedAddress(deps.db, sessionId);
      if (now) await deps.sessions.stop(now, 'user');
    },
    async answerHelp(requestId, answer) {
      const open = await findOpenRequest(deps.db, sessionId);
      if (mode !== 'control' || open?.request.id !== requestId)
        throw new Error('This request for help is no longer open on this session.');
      await deps.handoff.answer(everything(row.account_id), requestId, answer);
    },
  };
  const bar: ViewerBar = {
    type: 'session',
    profile: row.profile_name,
    status: row.status,
    view_only_path: mode === 'control' ? deps.tokens.path(sessionId, 'view') : null,
  };
  return { session, bar, owner: { accountId: row.account_id, sessionId } };
}
