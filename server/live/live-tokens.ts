import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a minted live view address may be opened; an open view lasts as long as the session. */
export const LIVE_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

/** `control` sends the viewer's mouse and keyboard to the session; `view` only shows it. */
export type LiveMode = 'control' | 'view';

const MODE_LETTERS: Record<LiveMode, string> = { control: 'c', view: 'v' };

/** `/live/<session id>/<c|v>.<expiry>.<signature>`, optionally followed by `/socket` (the viewer's WebSocket). */
const LIVE_PATH = /^\/live\/([A-Za-z0-9_]{1,64})\/([cv])\.(\d{1,15})\.([A-Za-z0-9_-]{43})(\/socket)?$/;

export interface LiveAddress {
  sessionId: string;
  mode: LiveMode;
  /** Whether the path is the viewer's WebSocket rather than its page. */
  socket: boolean;
  /** The token's signature: what tells one link of the session from another. */
  link: string;
}

/**
 * Signed, expiring tokens for a session's live view: `<mode>.<expiry>.<HMAC(session id, mode, expiry)>`. The
 * mode is signed, so a view-only address cannot be turned into one that controls. The key is derived from the
 * cluster's shared secret (deps.ts), so any node checks an address another minted.
 */
export class LiveTokens {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The path of the session's live view page in this mode, token included. */
  path(sessionId: string, mode: LiveMode): string {
    const expires = Math.floor((this.now() + LIVE_TOKEN_TTL_MS) / 1000);
    const letter = MODE_LETTERS[mode];
    return `/live/${sessionId}/${letter}.${expires}.${this.sign(sessionId, letter, expires)}`;
  }

  /** What a request path opens, or null when it is not a valid, unexpired live view address. */
  addressOf(pathname: string): LiveAddress | null {
    const match = LIVE_PATH.exec(pathname);
    if (!match) return null;
    const [, sessionId = '', letter = '', expiresText = '', signature = '', socket] = match;
    const expires = Number(expiresText);
    if (expires * 1000 <= this.now()) return null;
    const expected = Buffer.from(this.sign(sessionId, letter, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return {
      sessionId,
      mode: letter === 'c' ? 'control' : 'view',
      socket: socket !== undefined,
      link: signature,
    };
  }

  private sign(sessionId: string, letter: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${sessionId}.${letter}.${expires}`).digest('base64url');
  }
}
