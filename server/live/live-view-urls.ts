import type { SessionManager } from '../sessions/manager';
import type { LiveTokens } from './live-tokens';

/**
 * The sessions, whose answers carry the live view's addresses while they run (whenever they carry a
 * `cdp_url`): `live_view_url` to watch and control, `live_view_readonly_url` to share without control.
 */
export function withLiveViewUrls(sessions: SessionManager, tokens: LiveTokens): SessionManager {
  return {
    ...sessions,
    view(row, origin) {
      const session = sessions.view(row, origin);
      if (session.cdp_url === null) return session;
      return {
        ...session,
        live_view_url: `${origin}${tokens.path(row.id, 'control')}`,
        live_view_readonly_url: `${origin}${tokens.path(row.id, 'view')}`,
      };
    },
  };
}
