import type { CurrentPage, Session } from '../../lib/api/schemas/sessions';
import type { Peers } from '../cluster/peers';
import { shownText } from '../core/bounded-text';
import { Conflict, Unavailable } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import type { SessionManager } from '../sessions/manager';
import { sessionOf } from '../sessions/session-of';
import type { Reader } from '../store/scope';
import type { SessionRow } from '../store/sessions';
import { CdpSession } from './cdp-session';

/** How long a glance is reused: lists are polled, and each look costs the browser a little. */
const PAGE_TTL_MS = 2_000;
const THUMBNAIL_TTL_MS = 5_000;
/** A browser that does not answer a glance within this is shown without one (the list does not wait). */
const GLANCE_TIMEOUT_MS = 1_500;
export const THUMBNAIL_WIDTH = 320;
const MAX_TITLE = 200;
const MAX_URL = 500;

/** What a session is doing, for its lists: its active tab's title and address, and a small recent picture. */
export interface SessionGlance {
  /** The title and address of the session's active tab, here or on the node that runs it; null without one. */
  currentPage(row: SessionRow): Promise<CurrentPage | null>;
  /** A small JPEG of the active tab (THUMBNAIL_WIDTH wide), here or on the node that runs it; null without one. */
  thumbnail(row: SessionRow): Promise<Uint8Array | null>;
}

interface TargetInfo {
  targetId: string;
  type: string;
  title: string;
  url: string;
}

const cut = (text: string, max: number) => {
  const shown = shownText(text);
  return shown.length <= max ? shown : `${shown.slice(0, max - 1)}…`;
};

/**
 * Glances at the sessions this process runs, as a DevTools client that does not count as using the session (a
 * polled list must not keep a session from stopping as idle). The active tab is the one an agent or a run used
 * last, else the first. Answers are kept briefly per session.
 */
export function createSessionGlance(
  sessions: Pick<SessionManager, 'devtoolsOf' | 'activeTabOf'>,
  cluster: { peers: Pick<Peers, 'glanceElsewhere'>; nodeId: string },
  now: () => number = Date.now,
): SessionGlance {
  const kept = new Map<string, { until: number; answer: Promise<unknown> }>();

  function keep<T>(key: string, ttlMs: number, look: () => Promise<T>): Promise<T> {
    const at = now();
    for (const [other, entry] of kept) if (entry.until <= at) kept.delete(other);
    const known = kept.get(key);
    if (known) return known.answer as Promise<T>;
    const answer = look();
    kept.set(key, { until: at + ttlMs, answer });
    return answer;
  }

  async function withBrowser<T>(sessionId: string, look: (cdp: CdpSession, tab: TargetInfo) => Promise<T>) {
    const devtools = sessions.devtoolsOf(sessionId);
    if (!devtools) return null;
    // A browser that has just gone away refuses new clients: then there is nothing to glance at.
    const cdp = await CdpSession.attach(devtools, () => {}, { counted: false }).catch(() => null);
    if (!cdp) return null;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), GLANCE_TIMEOUT_MS);
    });
    const looking = (async () => {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
      const tabs = targetInfos.filter((info) => info.type === 'page');
      const active = sessions.activeTabOf(sessionId);
      const tab = tabs.find((info) => info.targetId === active) ?? tabs[0];
      return tab ? look(cdp, tab) : null;
    })();
    try {
      return await Promise.race([looking, late]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      cdp.detach();
    }
  }

  /** Here, or asked of the node that runs the session (which answers from its own browser, never asks on). */
  function here<T>(row: SessionRow, local: () => Promise<T | null>, elsewhere: () => Promise<T | null>) {
    if (sessions.devtoolsOf(row.id) || row.node_id === null || row.node_id === cluster.nodeId) return local();
    return elsewhere().catch(() => null);
  }

  const pageOf = (sessionId: string) =>
    withBrowser(sessionId, async (_cdp, tab) => ({
      title: cut(tab.title, MAX_TITLE),
      url: cut(tab.url, MAX_URL),
    }));

  const thumbnailOfTab = (sessionId: string) =>
    withBrowser(sessionId, async (cdp, tab) => {
      const { sessionId: tabSession } = (await cdp.send('Target.attachToTarget', {
        targetId: tab.targetId,
        flatten: true,
      })) as { sessionId: string };
      const metrics = (await cdp.send('Page.getLayoutMetrics', {}, tabSession)) as {
        cssLayoutViewport: { clientWidth: number; clientHeight: number };
      };
      const { clientWidth: width, clientHeight: height } = metrics.cssLayoutViewport;
      const scale = Math.min(1, THUMBNAIL_WIDTH / Math.max(1, width));
      const { data } = (await cdp.send(
        'Page.captureScreenshot',
        { format: 'jpeg', quality: 60, clip: { x: 0, y: 0, width, height, scale } },
        tabSession,
      )) as { data: string };
      return Buffer.from(data, 'base64');
    });

  return {
    currentPage: (row) =>
      keep(`page:${row.id}`, PAGE_TTL_MS, () =>
        here(
          row,
          () => pageOf(row.id),
          async () => (await cluster.peers.glanceElsewhere(row, 'page')) as CurrentPage | null,
        ),
      ),
    thumbnail: (row) =>
      keep(`thumbnail:${row.id}`, THUMBNAIL_TTL_MS, () =>
        here(
          row,
          () => thumbnailOfTab(row.id),
          async () => {
            const base64 = (await cluster.peers.glanceElsewhere(row, 'thumbnail')) as string | null;
            return base64 === null ? null : Buffer.from(base64, 'base64');
          },
        ),
      ),
  };
}

/** The session (`row`'s view) with its current page while it runs, else null. */
export async function withCurrentPage(
  glance: SessionGlance,
  row: SessionRow,
  session: Session,
): Promise<Session> {
  const current_page = row.status === 'running' ? await glance.currentPage(row) : null;
  return { ...session, current_page };
}

/** A page of sessions with each one's current page: `view` of listSessions, then withCurrentPage on each. */
export function viewingRows(glance: SessionGlance, view: (row: SessionRow) => Session) {
  const rows = new Map<string, SessionRow>();
  return {
    view(row: SessionRow): Session {
      rows.set(row.id, row);
      return view(row);
    },
    withPages: (sessions: Session[]) =>
      Promise.all(
        sessions.map((session) => {
          const row = rows.get(session.id);
          return row ? withCurrentPage(glance, row, session) : session;
        }),
      ),
  };
}

/** The thumbnail of one of the account's running sessions; NotFound for another account's. */
export async function thumbnailOf(
  deps: { db: Queryable; glance: SessionGlance },
  reader: Reader,
  sessionId: string,
): Promise<Uint8Array> {
  const row = await sessionOf(deps.db, reader, sessionId);
  if (row.status !== 'running')
    throw new Conflict(
      'session_not_running',
      `The session is ${row.status}: only a running session has a picture.`,
      row.id,
    );
  const picture = await deps.glance.thumbnail(row);
  if (picture) return picture;
  throw new Unavailable(
    'browser_unavailable',
    'The session’s browser did not give a picture in time (or it runs on another node of the cluster); try again in a few seconds.',
    { retryAfterSeconds: 5, sessionId: row.id },
  );
}
