import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { Session, SessionStartAnswer } from '../../lib/api/schemas/sessions';
import type { StopAllResult } from '../../lib/messaging/protocol';
import { type Cached, cachedProfiles, cachedSessions, lastProfile, preferences } from '../../lib/storage';
import { sentenceOf } from './connection';
import { changed, inTurn, readWhole } from './in-turn';
import { profileName } from './profiles';
import { markWaiting, startsServed } from './waiting-starts';

export interface SessionsDeps {
  /** A client, or a `no_key` error. */
  api(): Promise<ApiClient>;
  now(): number;
  /** A session the extension knew running has stopped because its browser exited on its own. */
  onExited(session: Session): Promise<void>;
}

export type Sessions = ReturnType<typeof createSessions>;

const isLive = (session: Session) => session.status === 'starting' || session.status === 'running';

/** How long a start is held for room before the service answers that it waits in line (within a worker's 30 s). */
export const START_WAIT_S = 20;

/**
 * Starts and stops sessions by profile and keeps the cached list (and the cached profiles' status) true to
 * the service, so that the popup never shows a session running that is not.
 */
export function createSessions({ api, now, onExited }: SessionsDeps) {
  let reconciling: Promise<Session[]> | null = null;

  /**
   * Gives the cached sessions the value `next` makes of them, and the cached profiles the matching status: all of
   * them, or only `onlyId`'s when the list is not fresh from the service (a cache that missed a session must not
   * mark its profile idle). In turn with the worker's other writes, so that none is lost.
   */
  function save(next: (cached: Cached<Session> | null) => Cached<Session>, onlyId?: string): Promise<void> {
    return inTurn(async () => {
      changed(cachedSessions);
      await write(next, onlyId);
    });
  }

  /** What `save` does, for a caller already in turn. */
  async function write(
    next: (cached: Cached<Session> | null) => Cached<Session>,
    onlyId?: string,
  ): Promise<void> {
    const [sessions, profiles] = await Promise.all([cachedSessions.getValue(), cachedProfiles.getValue()]);
    const saved = next(sessions);
    const byProfile = new Map(saved.data.map((session) => [session.profile_id, session]));
    await Promise.all([
      cachedSessions.setValue(saved),
      startsServed(onlyId ? [onlyId] : [...byProfile.keys()]),
      profiles &&
        cachedProfiles.setValue({
          ...profiles,
          data: profiles.data.map((profile) => {
            if (onlyId && profile.id !== onlyId) return profile;
            const session = byProfile.get(profile.id);
            // A session started since the list was read is the profile's latest use (ISO times sort as text).
            const used = [profile.last_used_at, session?.started_at]
              .filter((at) => at != null)
              .sort()
              .at(-1);
            return {
              ...profile,
              status: session ? 'running' : 'idle',
              session_id: session?.id ?? null,
              last_used_at: used ?? null,
            };
          }),
        }),
    ]);
  }

  /**
   * Puts one session's new state into the cache, without refreshing the rest. Events carry no DevTools address:
   * the one known for the same session is kept, read in the same turn as the write so that a start's answer
   * saved in between is not overwritten.
   */
  function remember(session: Session): Promise<void> {
    return save((cached) => {
      const known = cached?.data.find((cachedSession) => cachedSession.id === session.id);
      const latest = { ...session, cdp_url: session.cdp_url ?? known?.cdp_url ?? null };
      const others = (cached?.data ?? []).filter((other) => other.profile_id !== session.profile_id);
      return { data: isLive(latest) ? [latest, ...others] : others, savedAt: cached?.savedAt ?? 0 };
    }, session.profile_id);
  }

  /**
   * Every running session, page after page (an old one may sit behind a hundred newer ones); then each session
   * we knew that is no longer running, once, to learn whether its browser exited on its own.
   */
  async function refresh(): Promise<Session[]> {
    const client = await api();
    const before = (await cachedSessions.getValue())?.data ?? [];
    let live: Session[] = [];
    await readWhole(
      cachedSessions,
      async () => {
        const read: Session[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listSessions({ status: 'running', limit: 100, cursor });
          read.push(...page.data);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        return read;
      },
      (read) => {
        live = read;
        return write(() => ({ data: read, savedAt: now() }));
      },
    );
    for (const known of before) {
      if (live.some((session) => session.id === known.id)) continue;
      const current = await client.getSession(known.id).catch(() => null);
      if (current?.stop_reason === 'browser_exited') await onExited(current);
    }
    return live;
  }

  /**
   * The live sessions from the service, unless the cache is younger than `maxAgeMs` and knows each one's DevTools
   * address (a session known from an event only does not). One request at a time.
   */
  function reconcile(maxAgeMs = 0): Promise<Session[]> {
    reconciling ??= (async () => {
      const cached = await cachedSessions.getValue();
      if (cached && now() - cached.savedAt < maxAgeMs && cached.data.every((s) => s.cdp_url))
        return cached.data;
      return refresh();
    })().finally(() => {
      reconciling = null;
    });
    return reconciling;
  }

  /** Starts of these profiles wait in the service's line for a free browser (a 202, a bulk start's `waiting`). */
  function inLine(profileIds: readonly string[]): Promise<void> {
    return inTurn(async () => markWaiting(profileIds, now(), await cachedSessions.getValue()));
  }

  /** Our cache was wrong about this profile: learn the truth, then report the service's answer. */
  async function correctedAfter(error: unknown): Promise<never> {
    if (error instanceof ApiError && error.status === 409) await reconcile().catch(() => undefined);
    throw error;
  }

  return {
    reconcile,
    inLine,

    /** A change the event stream reported: the cache follows; a browser that exited on its own is announced. */
    async apply(session: Session): Promise<void> {
      // A start shows once it runs (the start's own answer says so too), not while the browser launches.
      if (session.status === 'starting') return;
      const known = (await cachedSessions.getValue())?.data.find((cached) => cached.id === session.id);
      await remember(session);
      if (known && session.stop_reason === 'browser_exited') await onExited(session);
    },

    /**
     * Starts the profile's browser; with no room, the start waits in the service's line and the profile is marked
     * waiting until its session's event (or a fresh list) says it runs.
     */
    async start(profileId: string, headless?: boolean): Promise<SessionStartAnswer> {
      const client = await api();
      // Unticked, the preference leaves it to the service, which opens a window only where there is a display.
      const wanted = headless ?? ((await preferences.getValue()).headless || undefined);
      const session = await client
        .startSessionInLine({ profile_id: profileId, headless: wanted, wait: START_WAIT_S })
        .catch(correctedAfter);
      if (session.status === 'waiting') {
        await inLine([profileId]);
        return session;
      }
      await Promise.all([
        remember(session),
        lastProfile.setValue({ id: profileId, name: await profileName(session) }),
      ]);
      return session;
    },

    async stop(profileId: string): Promise<Session> {
      const client = await api();
      const session = await client.stopSession({ profile_id: profileId }).catch(correctedAfter);
      await remember(session);
      return session;
    },

    async stopAll(): Promise<StopAllResult> {
      const live = await reconcile();
      const client = await api();
      const outcomes = await Promise.allSettled(
        live.map((session) => client.stopSession({ session_id: session.id })),
      );
      const result: StopAllResult = { stopped: [], failed: [] };
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') result.stopped.push(outcome.value);
        else
          result.failed.push({
            profileId: live[index]?.profile_id ?? '',
            message: sentenceOf(outcome.reason),
          });
      });
      const stoppedIds = new Set(result.stopped.map((session) => session.id));
      await save((cached) => ({
        data: (cached?.data ?? []).filter((session) => !stoppedIds.has(session.id)),
        savedAt: now(),
      }));
      return result;
    },
  };
}
