import type { Session } from '../../lib/api/schemas/sessions';
import { type SessionRow, toSession } from '../store/sessions';
import type { CdpTokens } from './cdp-tokens';
import { isHere, type SessionParts } from './parts';

/** A running session's DevTools address (`cdp_url`), with a fresh token each time it is shown. */
export interface CdpAddresses {
  /** The API's view of a session: while it runs, its DevTools address on `origin`. */
  view(row: SessionRow, origin: string): Session;
  /** The address on this process's own origin, for a run on another node's session; null until it listens. */
  localCdpUrl(row: SessionRow): string | null;
  listeningAt(origin: string): void;
}

export function createCdpAddresses(
  parts: Pick<SessionParts, 'cluster' | 'browsers'>,
  tokens: CdpTokens,
): CdpAddresses {
  let localOrigin: string | null = null;

  /** Served here, or relayed by any node to the one that runs it. */
  function cdpPath(row: SessionRow): string | null {
    if (row.status !== 'running') return null;
    return parts.browsers.has(row.id) || !isHere(parts, row) ? tokens.path(row.id) : null;
  }

  return {
    view(row, origin) {
      const path = cdpPath(row);
      return toSession(row, path === null ? null : `${origin.replace(/^http/, 'ws')}${path}`);
    },
    localCdpUrl(row) {
      const path = cdpPath(row);
      return path === null || localOrigin === null ? null : `${localOrigin.replace(/^http/, 'ws')}${path}`;
    },
    listeningAt(origin) {
      localOrigin = origin;
    },
  };
}
