import type { Cookie } from '../../lib/api/schemas/cookies';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { CookieChange, Peers } from '../cluster/peers';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import type { SessionManager } from '../sessions/manager';
import type { Holder } from '../store/leases';
import { getProfile } from '../store/profiles';
import type { Reader } from '../store/scope';
import { findSessionOfProfile, LIVE_SESSION_STATUSES } from '../store/sessions';
import { readBrowserCookies, writeBrowserCookies } from './browser-cookies';

/** A profile's cookies, read and written in its browser whether or not its session runs. */
export interface ProfileCookies {
  /** `holder`: who a browser started for it holds the profile for, while it reads or writes. */
  read(reader: Reader, profileId: string, holder: Holder): Promise<Cookie[]>;
  /** Answers how many were taken: a stopped profile does not keep cookies without an expiry. */
  write(
    reader: Reader,
    profileId: string,
    holder: Holder,
    cookies: Cookie[],
    replace: boolean,
  ): Promise<number>;
}

export function createProfileCookies(deps: {
  db: Queryable;
  sessions: SessionManager;
  peers: Peers;
}): ProfileCookies {
  const { db, sessions, peers } = deps;

  /**
   * Reads (`change` null) or writes the profile's cookies in its browser: its running session's, wherever that
   * runs, or one started here for its cookies only and stopped after, which saves the profile's data after a
   * write (so the cookies are there at its next start). A stopped profile does not take cookies without an expiry.
   */
  async function inBrowser(
    reader: Reader,
    profileId: string,
    holder: Holder,
    change: CookieChange | null,
  ): Promise<Cookie[] | number> {
    if (!(await getProfile(db, reader, profileId))) throw new NotFound('profile');
    const accountId = reader.id;
    const live = await findSessionOfProfile(db, accountId, profileId);
    if (live?.status === 'running') {
      const devtools = sessions.devtoolsOf(live.id);
      const answer = devtools
        ? await apply(devtools, change, true)
        : await peers.cookiesElsewhere(live, change, holder);
      if (answer !== null) return answer;
    }
    if (live && (LIVE_SESSION_STATUSES as readonly string[]).includes(live.status))
      throw new Conflict(
        'session_busy',
        `The profile’s session is ${live.status === 'running' ? 'being taken over' : live.status}; try again in a moment.`,
        live.id,
      );
    const started = await sessions.startForCookies(accountId, profileId, holder);
    try {
      const devtools = sessions.devtoolsOf(started.id);
      if (!devtools) throw new Error(`session ${started.id} has no browser right after it started`);
      return await apply(devtools, change, false);
    } finally {
      await sessions.stop(started, 'cookies', { saveProfile: change !== null });
    }
  }

  return {
    read: async (reader, profileId, holder) => (await inBrowser(reader, profileId, holder, null)) as Cookie[],
    write: async (reader, profileId, holder, cookies, replace) =>
      (await inBrowser(reader, profileId, holder, { cookies, replace })) as number,
  };
}

async function apply(
  devtools: CdpMultiplexer,
  change: CookieChange | null,
  running: boolean,
): Promise<Cookie[] | number> {
  if (!change) return readBrowserCookies(devtools);
  const kept = running ? change.cookies : change.cookies.filter((cookie) => cookie.expires !== null);
  await writeBrowserCookies(devtools, kept, change.replace);
  return kept.length;
}
