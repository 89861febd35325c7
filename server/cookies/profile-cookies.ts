import type { Cookie } from '../../lib/api/schemas/cookies';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Queryable } from '../db/driver';
import { Conflict, NotFound } from '../domain-errors';
import type { SessionManager } from '../sessions/manager';
import { getProfile } from '../store/profiles';
import { findSessionOfProfile } from '../store/sessions';
import { readBrowserCookies, writeBrowserCookies } from './browser-cookies';

/** A profile's cookies, read and written in its browser whether or not its session runs. */
export interface ProfileCookies {
  read(accountId: string, profileId: string): Promise<Cookie[]>;
  /** Answers how many were taken: a stopped profile does not keep cookies without an expiry. */
  write(accountId: string, profileId: string, cookies: Cookie[], replace: boolean): Promise<number>;
}

export function createProfileCookies({
  db,
  sessions,
}: {
  db: Queryable;
  sessions: SessionManager;
}): ProfileCookies {
  /**
   * Runs `use` on the profile's browser: its running session's, or a headless one started for the purpose
   * and stopped after, which saves the profile's data (so the cookies are there at its next start).
   */
  async function withBrowser<T>(
    accountId: string,
    profileId: string,
    use: (devtools: CdpMultiplexer, running: boolean) => Promise<T>,
  ): Promise<T> {
    if (!(await getProfile(db, accountId, profileId))) throw new NotFound('profile');
    const live = await findSessionOfProfile(db, accountId, profileId);
    if (live?.status === 'running') {
      const devtools = sessions.devtoolsOf(live.id);
      if (devtools) return use(devtools, true);
      throw new Conflict(
        'session_elsewhere',
        'The profile’s session runs on another process of the service; stop it, or send this request to that process.',
        live.id,
      );
    }
    if (live?.status === 'starting' || live?.status === 'stopping')
      throw new Conflict(
        'session_busy',
        `The profile’s session is ${live.status}; try again once it has.`,
        live.id,
      );
    const started = await sessions.startHere(accountId, profileId, true);
    try {
      const devtools = sessions.devtoolsOf(started.id);
      if (!devtools) throw new Error(`session ${started.id} has no browser right after it started`);
      return await use(devtools, false);
    } finally {
      await sessions.stop(started, 'user');
    }
  }

  return {
    read: (accountId, profileId) => withBrowser(accountId, profileId, readBrowserCookies),
    write: (accountId, profileId, cookies, replace) =>
      withBrowser(accountId, profileId, async (devtools, running) => {
        const kept = running ? cookies : cookies.filter((cookie) => cookie.expires !== null);
        await writeBrowserCookies(devtools, kept, replace);
        return kept.length;
      }),
  };
}
