import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/core/log';
import type { AppEnv } from '../../../server/http/env';
import { handleErrors } from '../../../server/http/errors';
import { requestLog } from '../../../server/http/request-log';
import { LiveTokens } from '../../../server/live/live-tokens';
import { CdpTokens } from '../../../server/sessions/cdp-tokens';

/* A cdp_url or live view token is the whole credential: whatever spelling a client sends it in, the request log
   (and the log of a request that failed) never holds it. */

const SESSION = 'ses_0123456789ABCDEFGHIJ';
const cdpPath = new CdpTokens().path(SESSION);
const livePath = new LiveTokens(Buffer.alloc(32, 7)).path(SESSION, 'view');
const cdpToken = cdpPath.split('/').at(-1) as string;
const liveToken = livePath.split('/').at(-1) as string;

/** Every character percent-encoded. */
const encoded = (text: string) =>
  [...text].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

const SPELLINGS: Record<string, string> = {
  'the http form of cdp_url': `${cdpPath}/json/version/`,
  'cdp_url as minted': cdpPath,
  'cdp_url with its segment in capitals': `/v1/sessions/${SESSION}/CDP/${cdpToken}`,
  'cdp_url with every segment in capitals': cdpPath.toUpperCase(),
  'cdp_url with its segment percent-encoded': `/v1/sessions/${SESSION}/cd%70/${cdpToken}/json`,
  'cdp_url with its token percent-encoded': `/v1/sessions/${SESSION}/cdp/${encoded(cdpToken)}`,
  'cdp_url with its token encoded twice': `/v1/sessions/${SESSION}/cdp/${encoded(cdpToken).replaceAll('%', '%25')}`,
  'cdp_url with an empty segment before it': `//v1/sessions/${SESSION}/cdp/${cdpToken}/json/list`,
  'cdp_url with a token and more in one segment': `/v1/sessions/${SESSION}/cdp/${cdpToken};x=1`,
  'a live view spelled /LIVE/': livePath.replace('/live/', '/LIVE/'),
  'a live view spelled /Live/ with its socket': `${livePath.replace('/live/', '/Live/')}/socket`,
  'a live view with its first segment percent-encoded': livePath.replace('/live/', '/%6Cive/'),
  'a live view with its token percent-encoded': `/live/${SESSION}/${encoded(liveToken)}`,
  'a live view after an empty segment': `//live/${SESSION}/${liveToken}`,
  'a live view token in an unknown path': `/v1/whatever/${liveToken}/x`,
};

/** Whether the token's signature can be read in `line` in any case, as written or decoded once or twice. */
function holdsToken(line: string, token: string): boolean {
  const signature = token.slice(token.lastIndexOf('.') + 1).toLowerCase();
  const decodeLoosely = (text: string) =>
    text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const once = decodeLoosely(line.toLowerCase());
  return [line.toLowerCase(), once, decodeLoosely(once).toLowerCase()].some((text) =>
    text.includes(signature.slice(0, 16)),
  );
}

async function loggedLines(path: string): Promise<string[]> {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', write: (line) => lines.push(line) });
  const app = new Hono<AppEnv>();
  app.use('*', requestLog(log));
  app.onError(handleErrors(log));
  app.all('*', () => {
    throw new Error('this request fails so that its error is logged too');
  });
  const answer = await app.request(`http://service${path}`);
  expect(answer.status).toBe(500);
  return lines;
}

describe('any log line', () => {
  it('holds no token of an address written in it, a cdp_url or a live view', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', write: (line) => lines.push(line) });
    log.warn('could not relay', {
      target: `ws://node.internal:8080${cdpPath}`,
      error: new Error(`at http://h${livePath}/socket`),
    });
    log.warn(`to ws://h${cdpPath.replace('/cdp/', '/CDP/')}/json/version`);
    for (const line of lines) {
      expect(holdsToken(line, cdpToken), line).toBe(false);
      expect(holdsToken(line, liveToken), line).toBe(false);
    }
    expect(lines[0]).toContain(`/v1/sessions/${SESSION}/cdp/…`);
  });
});

describe('the request log', () => {
  for (const [name, path] of Object.entries(SPELLINGS)) {
    it(`holds no token for ${name}`, async () => {
      const lines = await loggedLines(path);
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['request failed', 'request']);
      for (const line of lines) {
        expect(holdsToken(line, cdpToken), line).toBe(false);
        expect(holdsToken(line, liveToken), line).toBe(false);
      }
    });
  }

  it('keeps the rest of a path readable: the session id, and paths without tokens whole', async () => {
    const [, cdpLine = ''] = await loggedLines(`${cdpPath}/json/version/`);
    expect(JSON.parse(cdpLine).path).toBe(`/v1/sessions/${SESSION}/cdp/…`);
    const [, liveLine = ''] = await loggedLines(`${livePath}/socket`);
    expect(JSON.parse(liveLine).path).toBe(`/live/${SESSION}/…`);
    const [, plainLine = ''] = await loggedLines(`/v1/profiles/prf_0123456789ABCDEFGHIJ/cookies`);
    expect(JSON.parse(plainLine).path).toBe('/v1/profiles/prf_0123456789ABCDEFGHIJ/cookies');
  });
});
