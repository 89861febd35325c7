import { describe, expect, it } from 'vitest';
import { isSecretName, redactHeaders, redactUrl } from '../../../server/pages/redact';

/** Names whose values an agent must never read, as sites and APIs write them. */
const SECRETS = [
  'code',
  'token',
  'access_token',
  'accessToken',
  'refresh-token',
  'key',
  'api_key',
  'apikey',
  'X-API-Key',
  'secret',
  'client_secret',
  'password',
  'passwd',
  'pw',
  'pass',
  'auth',
  'X-Auth',
  'Authorization',
  'Proxy-Authorization',
  'jwt',
  'id_jwt',
  'session',
  'sessionid',
  'PHPSESSID',
  'JSESSIONID',
  'sig',
  'signature',
  'X-Amz-Signature',
  'credential',
  'X-Amz-Credential',
  'Cookie',
  'Set-Cookie',
  'X-CSRF-Token',
  'X-Access',
];
/** Names whose values help an agent and hold no secret. */
const PLAIN = [
  'q',
  'page',
  'id',
  'lang',
  'Content-Type',
  'Accept-Encoding',
  'User-Agent',
  'Access-Control-Allow-Origin',
  'Cache-Control',
  'Referer',
  'utm_source',
];

describe('redaction of secrets in network lists', () => {
  it.each(SECRETS)('%s holds a secret, in any case', (name) => {
    expect(isSecretName(name)).toBe(true);
    expect(isSecretName(name.toUpperCase())).toBe(true);
    expect(isSecretName(name.toLowerCase())).toBe(true);
  });

  it.each(PLAIN)('%s does not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });

  it('replaces the values of secret query parameters and headers, and keeps the others', () => {
    const url = redactUrl('https://shop.test/cb?code=abc&pw=hunter2&JWT=eyJ&q=shoes&page=2');
    expect(url).toBe(
      'https://shop.test/cb?code=%5Bredacted%5D&pw=%5Bredacted%5D&JWT=%5Bredacted%5D&q=shoes&page=2',
    );
    expect(redactUrl('https://user:hunter2@shop.test/')).not.toContain('hunter2');
    expect(redactHeaders({ 'X-Auth': 'Bearer s3cret', 'x-access': 'k', accept: 'text/html' })).toEqual({
      'X-Auth': '[redacted]',
      'x-access': '[redacted]',
      accept: 'text/html',
    });
  });
});
