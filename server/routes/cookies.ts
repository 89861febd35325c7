import { CookieFileError, fromCookieFile, toCookieFile } from '../cookies/netscape';
import { validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';

/** cookies.txt when asked by `?format=netscape`, or by an Accept that prefers text/plain to JSON. */
function wantsCookieFile(format: string | undefined, accept: string | undefined): boolean {
  if (format) return format === 'netscape';
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  const text = types.indexOf('text/plain');
  const json = types.indexOf('application/json');
  return text !== -1 && (json === -1 || text < json);
}

function parseCookieFile(text: string): unknown {
  try {
    return fromCookieFile(text);
  } catch (error) {
    if (!(error instanceof CookieFileError)) throw error;
    throw validationProblem([{ path: '', message: error.message }], error.message);
  }
}

export const cookieRoutes: Route[] = [
  route(
    'getProfileCookies',
    async (c, { params, query, status }, { cookies }) => {
      const jar = await cookies.read(c.get('account'), params.id, c.get('account').member);
      if (!wantsCookieFile(query.format, c.req.header('accept'))) return c.json(jar, status);
      return c.text(toCookieFile(jar), status, { 'Content-Type': 'text/plain; charset=utf-8' });
    },
    { alsoAnswers: ['getProfileCookieFile'] },
  ),

  route(
    'putProfileCookies',
    async (c, { params, query, body, status }, { cookies }) => {
      const replace = query.replace === 'true';
      const imported = await cookies.write(
        c.get('account'),
        params.id,
        c.get('account').member,
        body,
        replace,
      );
      return c.json(
        { imported, session_cookies_not_kept: body.length - imported, replaced: replace },
        status,
      );
    },
    { textBody: parseCookieFile },
  ),
];
