import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../http/env';

/**
 * The dashboard's sign-in cookie: HttpOnly (page script cannot read it), SameSite=Strict (no other site's page
 * sends it), Secure when the dashboard is served over https, scoped to /dashboard (never sent to /v1), and
 * expiring with the sign-in.
 */
const COOKIE = 'pp_dashboard';
const COOKIE_PATH = '/dashboard';

export function readSignInCookie(c: Context<AppEnv>): string | undefined {
  return getCookie(c, COOKIE) || undefined;
}

export function setSignInCookie(c: Context<AppEnv>, token: string, expiresAt: Date): void {
  setCookie(c, COOKIE, token, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: servedOverHttps(c),
    expires: expiresAt,
  });
}

export function clearSignInCookie(c: Context<AppEnv>): void {
  deleteCookie(c, COOKIE, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: servedOverHttps(c),
  });
}

/** Over TLS here, or behind a proxy that terminates it (which says so in X-Forwarded-Proto). */
export function servedOverHttps(c: Context<AppEnv>): boolean {
  return publicScheme(c) === 'https';
}

function publicScheme(c: Context<AppEnv>): 'http' | 'https' {
  const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  if (forwarded === 'https') return 'https';
  return new URL(c.req.url).protocol === 'https:' ? 'https' : 'http';
}
