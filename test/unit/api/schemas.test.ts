import { describe, expect, it } from 'vitest';
import {
  ProfileCreate,
  ProfileListQuery,
  ProxyInput,
  RunCreate,
  RunStatusQuery,
  Script,
  SessionListQuery,
  SessionStop,
  Step,
} from '../../../lib/api';
import { CookieInput } from '../../../lib/api/inputs/cookies';
import { toFieldErrors } from '../../../lib/api/issues';
import { z } from '../../../lib/api/zod';

/** The field errors a value gets from a schema: [] when it is accepted. */
function errorsOf(schema: z.core.$ZodType, value: unknown) {
  const result = z.safeParse(schema, value);
  return result.success ? [] : toFieldErrors(result.error.issues);
}

function parse<S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> {
  return z.parse(schema, value);
}

const goto = { action: 'goto', url: 'https://example.com' };
const SHAPES =
  'must be host:port, host:port:user:pass, user:pass@host:port or scheme://[user:pass@]host:port';

describe('ProfileCreate', () => {
  it('accepts the spec’s example body', () => {
    expect(errorsOf(ProfileCreate, { name: 'Shop', proxy: 'http://proxy.example:8080' })).toEqual([]);
  });

  it('accepts a full body', () => {
    const body = {
      name: 'Shop',
      proxy_id: 'prx_1',
      tags: ['eu', 'shop'],
      notes: 'Main account',
      fingerprint: {
        user_agent: 'Mozilla/5.0',
        language: 'de-DE',
        timezone: 'Europe/Berlin',
        screen: { width: 1280, height: 800 },
      },
    };
    expect(errorsOf(ProfileCreate, body)).toEqual([]);
  });

  it.each([
    'http://h:8080',
    'https://proxy.example.com:443',
    'socks4://10.0.0.1:1080',
    'socks5://u:p@1.2.3.4:1080',
    'http://[::1]:3128',
    'HTTP://Proxy.Example:8080/',
    'http://h:1',
    'http://h:65535',
    'h:8080',
    '[::1]:3128',
    'h:8080:user:pass',
    'user:pass@h:8080',
    'socks5h://u:p@h:1080',
  ])('accepts the proxy %s', (proxy) => {
    expect(errorsOf(ProfileCreate, { name: 'p', proxy })).toEqual([]);
  });

  it.each([
    ['http://h', SHAPES],
    ['http://h:', SHAPES],
    ['http://h:0', 'port must be between 1 and 65535'],
    ['http://h:65536', 'port must be between 1 and 65535'],
    ['ftp://h:21', 'scheme must be one of http, https, socks4, socks5, socks5h'],
    ['http://my host:8080', SHAPES],
    ['http://u:p w@h:8080', SHAPES],
    ['http://h:80 80', SHAPES],
    ['', SHAPES],
  ])('rejects the proxy %j', (proxy, message) => {
    expect(errorsOf(ProfileCreate, { name: 'p', proxy })).toEqual([{ path: 'proxy', message }]);
  });

  it('trims a proxy and a name', () => {
    expect(parse(ProfileCreate, { name: '  Shop  ', proxy: '  http://h:8080 ' })).toEqual({
      name: 'Shop',
      proxy: 'http://h:8080',
    });
  });

  it.each([
    ['empty', ''],
    ['whitespace only', ' \t  '],
  ])('rejects a name that is %s', (_, name) => {
    expect(errorsOf(ProfileCreate, { name })).toEqual([{ path: 'name', message: 'must not be empty' }]);
  });

  it('takes 100 characters of name, not 101, counted after trimming', () => {
    expect(errorsOf(ProfileCreate, { name: 'a'.repeat(100) })).toEqual([]);
    expect(errorsOf(ProfileCreate, { name: `  ${'a'.repeat(100)}  ` })).toEqual([]);
    expect(errorsOf(ProfileCreate, { name: 'a'.repeat(101) })).toEqual([
      { path: 'name', message: 'must be at most 100 characters' },
    ]);
  });

  it('requires a name', () => {
    expect(errorsOf(ProfileCreate, { proxy: 'http://h:1' })).toEqual([
      { path: 'name', message: 'is required' },
    ]);
  });

  it('refuses proxy and proxy_id together', () => {
    expect(errorsOf(ProfileCreate, { name: 'p', proxy: 'http://h:1', proxy_id: 'prx_1' })).toEqual([
      { path: 'proxy_id', message: 'give either proxy or proxy_id, not both' },
    ]);
  });

  it('takes a null proxy next to a proxy_id', () => {
    expect(errorsOf(ProfileCreate, { name: 'p', proxy: null, proxy_id: 'prx_1' })).toEqual([]);
  });

  it.each([
    ['user_agent', 'Mozilla/5.0\r\nX-Injected: 1'],
    ['user_agent', 'Mozilla/5.0\nAgent'],
    ['user_agent', 'Mozilla\t5.0'],
    ['user_agent', 'Mozilla\u00855.0'],
    ['user_agent', 'Mozilla\u007f'],
  ])('refuses a fingerprint %s with a control character (%j)', (field, value) => {
    expect(errorsOf(ProfileCreate, { name: 'x', fingerprint: { [field]: value } })).toEqual([
      { path: `fingerprint.${field}`, message: 'must not contain line breaks or other control characters' },
    ]);
  });

  it.each([
    ['language', 'en-US\n'],
    ['language', 'en\r\nUS'],
    ['timezone', 'Europe/Berlin\n'],
    ['timezone', 'Europe/Ber\rlin'],
  ])('refuses a fingerprint %s with a control character (%j)', (field, value) => {
    expect(errorsOf(ProfileCreate, { name: 'x', fingerprint: { [field]: value } })).toEqual([
      { path: `fingerprint.${field}`, message: expect.stringMatching(/^must be a/) },
    ]);
  });

  it('trims line breaks around a user agent, as around any text', () => {
    expect(parse(ProfileCreate, { name: 'x', fingerprint: { user_agent: ' Mozilla/5.0\n' } })).toMatchObject({
      fingerprint: { user_agent: 'Mozilla/5.0' },
    });
  });

  it('rejects an unknown field, naming it', () => {
    expect(errorsOf(ProfileCreate, { name: 'p', prxy: 'http://h:1' })).toEqual([
      { path: '', message: 'unknown field: prxy' },
    ]);
  });

  it.each([
    [{ screen: { width: 100, height: 800 } }, 'fingerprint.screen.width', 'must be at least 320'],
    [{ language: 'english' }, 'fingerprint.language', 'must be a language tag such as en-US'],
    [{ timezone: 'Berlin' }, 'fingerprint.timezone', 'must be an IANA time zone such as Europe/Berlin'],
    [{ canvas: 'noise' }, 'fingerprint', 'unknown field: canvas'],
  ])('rejects the fingerprint %j', (fingerprint, path, message) => {
    expect(errorsOf(ProfileCreate, { name: 'p', fingerprint })).toEqual([{ path, message }]);
  });

  it('limits tags', () => {
    expect(errorsOf(ProfileCreate, { name: 'p', tags: [' '] })).toEqual([
      { path: 'tags[0]', message: 'must not be empty' },
    ]);
    expect(errorsOf(ProfileCreate, { name: 'p', tags: Array(21).fill('t') })).toEqual([
      { path: 'tags', message: 'at most 20 tags' },
    ]);
  });
});

describe('ProxyInput', () => {
  const proxy = { name: 'Office', scheme: 'socks5', host: '1.2.3.4', port: 1080 };

  it('accepts a proxy with and without credentials, and a null password', () => {
    expect(errorsOf(ProxyInput, proxy)).toEqual([]);
    expect(errorsOf(ProxyInput, { ...proxy, host: '[::1]', username: 'u', password: 'p' })).toEqual([]);
    expect(errorsOf(ProxyInput, { ...proxy, password: null })).toEqual([]);
    expect(errorsOf(ProxyInput, { ...proxy, scheme: 'socks5h' })).toEqual([]);
  });

  it('takes a proxy without a name (the service names it user@host:port)', () => {
    const { name: _, ...unnamed } = proxy;
    expect(errorsOf(ProxyInput, unnamed)).toEqual([]);
  });

  it.each([
    [{ port: 0 }, 'port', 'must be 1 to 65535'],
    [{ port: 65536 }, 'port', 'must be 1 to 65535'],
    [{ port: 80.5 }, 'port', 'must be a whole number'],
    [{ scheme: 'ftp' }, 'scheme', 'must be one of "http", "https", "socks4", "socks5", "socks5h"'],
    [{ host: 'my host' }, 'host', 'must be a host name or an IP address'],
    [{ password: '' }, 'password', 'must not be empty'],
    [{ name: ' ' }, 'name', 'must not be empty'],
    [{ url: 'http://h:1' }, '', 'unknown field: url'],
  ])('rejects %j', (change, path, message) => {
    expect(errorsOf(ProxyInput, { ...proxy, ...change })).toEqual([{ path, message }]);
  });

  it('rejects an empty host, saying so first', () => {
    expect(errorsOf(ProxyInput, { ...proxy, host: ' ' })[0]).toEqual({
      path: 'host',
      message: 'must not be empty',
    });
  });
});

describe('Step', () => {
  it.each([
    goto,
    { action: 'goto', url: 'http://127.0.0.1:8080/path?q=1' },
    { action: 'goto', url: 'about:blank' },
    // A URL's scheme is case-insensitive.
    { action: 'goto', url: 'HTTP://EXAMPLE.COM/' },
    { action: 'goto', url: 'Https://example.com/Path' },
    { action: 'goto', url: 'ABOUT:blank' },
    { action: 'click', selector: '#buy' },
    { action: 'type', selector: 'input[name=q]', text: 'hello' },
    { action: 'type', selector: 'input', text: '' },
    { action: 'wait_for', selector: '.ready' },
    { action: 'wait_for', ms: 0 },
    { action: 'wait_for', ms: 60000 },
    { action: 'extract', selector: 'h1', name: 'title' },
    { action: 'extract', selector: 'a', name: 'link.href-1_x', attribute: 'href' },
    { action: 'evaluate', expression: 'document.title' },
    { action: 'evaluate', expression: '1 + 1', name: 'sum' },
    { action: 'screenshot', name: 'after-login' },
    { action: 'screenshot', name: 'x'.repeat(64) },
  ])('accepts %j', (step) => {
    expect(errorsOf(Step, step)).toEqual([]);
  });

  it.each([
    [{ action: 'goto', url: 'ftp://example.com' }, 'url', 'must be an http:// or https:// address'],
    [{ action: 'goto', url: 'javascript:alert(1)' }, 'url', 'must be an http:// or https:// address'],
    [{ action: 'goto', url: 'example.com' }, 'url', 'must be an http:// or https:// address'],
    [{ action: 'goto' }, 'url', 'is required'],
    [{ action: 'click', selector: '' }, 'selector', 'must not be empty'],
    [{ action: 'type', selector: 'input' }, 'text', 'is required'],
    [{ action: 'wait_for', selector: '.a', ms: 100 }, 'selector', 'wait_for takes either selector or ms'],
    [{ action: 'wait_for' }, 'selector', 'wait_for takes either selector or ms'],
    [{ action: 'wait_for', ms: -1 }, 'ms', 'must be 0 or more'],
    [{ action: 'wait_for', ms: 60001 }, 'ms', 'must be at most 60000'],
    [{ action: 'extract', selector: 'h1' }, 'name', 'is required'],
    [
      { action: 'extract', selector: 'h1', name: 'my title' },
      'name',
      'must be 1–64 letters, digits, dots, dashes or underscores',
    ],
    [{ action: 'screenshot', name: '' }, 'name', 'must be 1–64 letters, digits, dots, dashes or underscores'],
    [
      { action: 'screenshot', name: '../etc' },
      'name',
      'must be 1–64 letters, digits, dots, dashes or underscores',
    ],
    [
      { action: 'screenshot', name: 'x'.repeat(65) },
      'name',
      'must be 1–64 letters, digits, dots, dashes or underscores',
    ],
    [{ action: 'evaluate', expression: '' }, 'expression', 'must not be empty'],
    [
      { action: 'evaluate', expression: '1', name: 'a b' },
      'name',
      'must be 1–64 letters, digits, dots, dashes or underscores',
    ],
    [{ action: 'click', selector: '#a', delay: 5 }, '', 'unknown field: delay'],
  ])('rejects %j', (step, path, message) => {
    expect(errorsOf(Step, step)).toEqual([{ path, message }]);
  });

  it('rejects an unknown action', () => {
    expect(errorsOf(Step, { action: 'scroll', selector: 'body' })).toHaveLength(1);
    expect(errorsOf(Step, { action: 'scroll', selector: 'body' })[0]?.path).toBe('action');
  });
});

describe('Script', () => {
  it('takes 1 to 100 steps', () => {
    expect(errorsOf(Script, { steps: [goto] })).toEqual([]);
    expect(errorsOf(Script, { steps: Array(100).fill(goto) })).toEqual([]);
    expect(errorsOf(Script, { steps: [] })).toEqual([{ path: 'steps', message: 'needs at least one step' }]);
    expect(errorsOf(Script, { steps: Array(101).fill(goto) })).toEqual([
      { path: 'steps', message: 'at most 100 steps' },
    ]);
  });

  it('names the step at fault', () => {
    expect(errorsOf(Script, { steps: [goto, { action: 'goto', url: 'nope' }] })).toEqual([
      { path: 'steps[1].url', message: 'must be an http:// or https:// address' },
    ]);
  });

  it.each([
    [1000, []],
    [600000, []],
    [999, [{ path: 'timeout_ms', message: 'must be at least 1000' }]],
    [600001, [{ path: 'timeout_ms', message: 'must be at most 600000' }]],
  ])('timeout_ms %d', (timeout_ms, errors) => {
    expect(errorsOf(Script, { steps: [goto], timeout_ms })).toEqual(errors);
  });

  it('rejects a fractional timeout_ms', () => {
    expect(errorsOf(Script, { steps: [goto], timeout_ms: 1500.5 })).toEqual([
      { path: 'timeout_ms', message: 'must be a whole number' },
    ]);
  });

  it('tells a missing field from a field of the wrong type', () => {
    expect(errorsOf(Step, { action: 'click' })).toEqual([{ path: 'selector', message: 'is required' }]);
    expect(errorsOf(Step, { action: 'click', selector: 7 })).toEqual([
      { path: 'selector', message: 'must be a string' },
    ]);
  });
});

describe('RunCreate', () => {
  const script = { steps: [goto] };

  it('takes a profile_id or a session_id, and a name', () => {
    expect(errorsOf(RunCreate, { profile_id: 'prf_1', script })).toEqual([]);
    expect(errorsOf(RunCreate, { session_id: 'ses_1', script, name: 'Check prices' })).toEqual([]);
  });

  it.each([
    ['neither', { script }],
    ['both', { profile_id: 'prf_1', session_id: 'ses_1', script }],
  ])('refuses %s of profile_id and session_id', (_, body) => {
    expect(errorsOf(RunCreate, body)).toEqual([
      { path: 'profile_id', message: 'give exactly one of profile_id or session_id' },
    ]);
  });

  it('requires a script', () => {
    expect(errorsOf(RunCreate, { profile_id: 'prf_1' })).toEqual([
      { path: 'script', message: 'is required' },
    ]);
  });
});

describe('SessionStop', () => {
  it('takes exactly one of session_id and profile_id', () => {
    expect(errorsOf(SessionStop, { session_id: 'ses_1' })).toEqual([]);
    expect(errorsOf(SessionStop, { profile_id: 'prf_1' })).toEqual([]);
    const problem = [{ path: 'session_id', message: 'give exactly one of session_id or profile_id' }];
    expect(errorsOf(SessionStop, {})).toEqual(problem);
    expect(errorsOf(SessionStop, { session_id: 'ses_1', profile_id: 'prf_1' })).toEqual(problem);
  });
});

describe('list queries', () => {
  it.each([ProfileListQuery, SessionListQuery, RunStatusQuery])(
    'coerce limit from the query string, 50 by default',
    (schema) => {
      expect(parse(schema, { limit: '20' })).toMatchObject({ limit: 20 });
      expect(parse(schema, { limit: '1' })).toMatchObject({ limit: 1 });
      expect(parse(schema, { limit: '100' })).toMatchObject({ limit: 100 });
      expect(parse(schema, {})).toMatchObject({ limit: 50 });
    },
  );

  it.each([
    ['0', 'must be at least 1'],
    ['101', 'must be at most 100'],
    ['2.5', 'must be a whole number'],
  ])('reject limit=%s', (limit, message) => {
    expect(errorsOf(ProfileListQuery, { limit })).toEqual([{ path: 'limit', message }]);
  });

  it('rejects a limit that is no number', () => {
    expect(errorsOf(ProfileListQuery, { limit: 'ten' })).toHaveLength(1);
  });

  it('filters profiles by status and runs by status, active included', () => {
    expect(errorsOf(ProfileListQuery, { status: 'running', q: 'shop' })).toEqual([]);
    expect(errorsOf(ProfileListQuery, { status: 'busy' })).toHaveLength(1);
    expect(errorsOf(RunStatusQuery, { status: 'active' })).toEqual([]);
  });

  it('bounds the long-poll wait to 25 s', () => {
    expect(parse(RunStatusQuery, { run_id: 'run_1', wait: '25', after_version: '3' })).toMatchObject({
      wait: 25,
      after_version: 3,
    });
    expect(errorsOf(RunStatusQuery, { wait: '26' })).toEqual([
      { path: 'wait', message: 'must be at most 25' },
    ]);
  });
});

describe('CookieInput', () => {
  it.each([
    ['example.com', 'a host-only cookie'],
    ['.example.com', 'a domain cookie'],
    ['.sub.example.co.uk', 'a domain cookie under a two-label suffix'],
    ['localhost', 'a single-label host'],
    ['127.0.0.1', 'an IPv4 address'],
    ['.127.0.0.1', 'an IPv4 address with the dot exports give it'],
    ['[::1]', 'an IPv6 address'],
    ['xn--bcher-kva.example', 'an international name in its xn-- form'],
    ['my_host.example', 'a name with an underscore, which Chromium takes'],
  ])('takes the domain %s (%s)', (domain) => {
    expect(errorsOf(CookieInput, { name: 'sid', value: 'v', domain })).toEqual([]);
  });

  it.each([
    '.com',
    '.localhost',
    'a@127.0.0.1:1/x?',
    'example.com/path',
    '..example.com',
    '1.2.3',
    '[fe80::1%25lo]',
  ])('refuses the domain %s', (domain) => {
    expect(errorsOf(CookieInput, { name: 'sid', value: 'v', domain }).map((error) => error.path)).toEqual([
      'domain',
    ]);
  });

  it('takes what Chromium takes in a value and a path: spaces inside, “=”, quotes, non-ASCII', () => {
    expect(
      errorsOf(CookieInput, { name: 'a b', value: 'x=1 "é"', domain: 'example.com', path: '/a b/é' }),
    ).toEqual([]);
  });
});
