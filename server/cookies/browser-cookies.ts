import type { Cookie } from '../../lib/api/schemas/cookies';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';

/** A cookie as the DevTools protocol's Storage domain gives it (`expires` -1 for a session cookie). */
interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/** One command on the browser target, as a client of its own (the multiplexer keeps it apart from the others). */
async function browserCommand(
  devtools: CdpMultiplexer,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  let settle: { resolve(result: Record<string, unknown>): void; reject(error: Error): void } | undefined;
  const answered = new Promise<Record<string, unknown>>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const client = await devtools.attach(
    (text) => {
      const message = JSON.parse(text.toString()) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (message.id !== 1) return;
      if (message.error) settle?.reject(new Error(`${method}: ${message.error.message}`));
      else settle?.resolve(message.result ?? {});
    },
    (reason) => settle?.reject(new Error(`the browser went away: ${reason}`)),
  );
  try {
    client.receive(JSON.stringify({ id: 1, method, params }));
    return await answered;
  } finally {
    client.detach();
  }
}

export async function readBrowserCookies(devtools: CdpMultiplexer): Promise<Cookie[]> {
  const { cookies } = (await browserCommand(devtools, 'Storage.getCookies')) as { cookies: CdpCookie[] };
  return cookies.map((cookie) => ({
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.session || cookie.expires < 0 ? null : Math.floor(cookie.expires),
    secure: cookie.secure,
    http_only: cookie.httpOnly,
    same_site: cookie.sameSite ?? null,
  }));
}

/** Sets the cookies (over those of the same name, domain and path); `replace` removes every other cookie first. */
export async function writeBrowserCookies(
  devtools: CdpMultiplexer,
  cookies: Cookie[],
  replace: boolean,
): Promise<void> {
  if (replace) await browserCommand(devtools, 'Storage.clearCookies');
  if (cookies.length === 0) return;
  await browserCommand(devtools, 'Storage.setCookies', { cookies: cookies.map(toCookieParam) });
}

/** A domain with a leading dot is a domain cookie; without, the cookie is for that host only (set by its URL). */
function toCookieParam(cookie: Cookie): Record<string, unknown> {
  const host = cookie.domain.startsWith('.') ? cookie.domain.slice(1) : cookie.domain;
  return {
    name: cookie.name,
    value: cookie.value,
    path: cookie.path,
    secure: cookie.secure,
    httpOnly: cookie.http_only,
    ...(cookie.domain.startsWith('.')
      ? { domain: cookie.domain }
      : { url: `${cookie.secure ? 'https' : 'http'}://${host}${cookie.path}` }),
    ...(cookie.expires === null ? {} : { expires: cookie.expires }),
    ...(cookie.same_site ? { sameSite: cookie.same_site } : {}),
  };
}
