import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a minted `cdp_url` may be used to open a connection; an open one lasts as long as the session. */
export const CDP_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

const CDP_PATH = /^\/v1\/sessions\/([A-Za-z0-9_]{1,64})\/cdp\/(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * Signed, expiring tokens that open one session's DevTools relay: `<expiry>.<HMAC(session id, expiry)>`.
 * The key is made at start and never stored: a session's browser ends with the process that minted it.
 */
export class CdpTokens {
  constructor(
    private readonly key: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {}

  /** The path of the session's DevTools endpoint, token included. */
  path(sessionId: string): string {
    const expires = Math.floor((this.now() + CDP_TOKEN_TTL_MS) / 1000);
    return `/v1/sessions/${sessionId}/cdp/${expires}.${this.sign(sessionId, expires)}`;
  }

  /** The session a request path opens, or null when it is not a valid, unexpired token for one. */
  sessionOf(pathname: string): string | null {
    const match = CDP_PATH.exec(pathname);
    if (!match) return null;
    const [, sessionId = '', expiresText = '', signature = ''] = match;
    const expires = Number(expiresText);
    if (expires * 1000 <= this.now()) return null;
    const expected = Buffer.from(this.sign(sessionId, expires));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? sessionId : null;
  }

  private sign(sessionId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${sessionId}.${expires}`).digest('base64url');
  }
}
