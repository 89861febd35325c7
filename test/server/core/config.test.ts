import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeysCli } from '../../../server/boot/cli';
import { ConfigError, loadConfig, PROJECT_ROOT } from '../../../server/core/config';

/* The service's configuration and the keys command line, parsed as the README's tables promise. */

describe('configuration', () => {
  it('has the README’s defaults', () => {
    expect(loadConfig({})).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      dataDir: path.join(PROJECT_ROOT, '.data'),
      databaseUrl: null,
      chromePath: null,
      headless: true,
      logLevel: 'info',
      proxyCheckUrl: 'https://ipinfo.io/json',
      limits: expect.objectContaining({ maxProfileStateBytes: 0, evaluateTimeoutMs: 20_000 }),
    });
    expect(loadConfig({ EVALUATE_TIMEOUT: '3' }).limits.evaluateTimeoutMs).toBe(3_000);
    expect(loadConfig({}).nodeLostAfterMs).toBe(15_000);
    expect(loadConfig({ NODE_LOST_AFTER: '6' }).nodeLostAfterMs).toBe(6_000);
    expect(() => loadConfig({ NODE_LOST_AFTER: '2' })).toThrow(/NODE_LOST_AFTER/);
    expect(loadConfig({ PROXY_CHECK_URL: '' }).proxyCheckUrl).toBeNull();
    expect(() => loadConfig({ PROXY_CHECK_URL: 'ftp://x' })).toThrow(/PROXY_CHECK_URL must be an http/);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/pilot' }).limits.maxProfileStateBytes).toBe(
      50 * 2 ** 20,
    );
  });

  it('runs sessions with a window by default where there is a display, unless HEADLESS says otherwise', () => {
    expect(loadConfig({ DISPLAY: ':0' }).headless).toBe(false);
    expect(loadConfig({ WAYLAND_DISPLAY: 'wayland-0' }).headless).toBe(false);
    expect(loadConfig({ DISPLAY: ':0', HEADLESS: 'yes' }).headless).toBe(true);
    expect(loadConfig({ HEADLESS: 'off' }).headless).toBe(false);
  });

  it('sends webhooks to loopback and private addresses, over http too, only when bound to loopback or told so', () => {
    const local = loadConfig({}).webhooks;
    expect([local.allowed.allows('127.0.0.1'), local.allowed.allows('10.0.0.5'), local.allowHttp]).toEqual([
      true,
      true,
      true,
    ]);
    const exposed = loadConfig({ HOST: '0.0.0.0' }).webhooks;
    expect([
      exposed.allowed.allows('127.0.0.1'),
      exposed.allowed.allows('10.0.0.5'),
      exposed.allowHttp,
    ]).toEqual([false, false, false]);
    expect(exposed.allowed.allows('93.184.215.14')).toBe(true);
    const told = loadConfig({
      HOST: '0.0.0.0',
      WEBHOOK_ALLOW: 'private',
      WEBHOOK_ALLOW_HTTP: 'true',
    }).webhooks;
    expect([told.allowed.allows('10.0.0.5'), told.allowed.allows('127.0.0.1'), told.allowHttp]).toEqual([
      true,
      false,
      true,
    ]);
    expect(loadConfig({}).webhooks.retryDelaysS).toEqual([5, 60, 300, 1800, 3600, 10800, 21600, 43200]);
    expect(() => loadConfig({ WEBHOOK_ALLOW: 'intranet' })).toThrow(/WEBHOOK_ALLOW has "intranet"/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '5,soon' })).toThrow(ConfigError);
  });

  it('takes every variable, and flags over them', () => {
    const env = {
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/srv/pilot',
      DATABASE_URL: 'postgres://db/pilot',
      CHROME_PATH: '/opt/chrome',
      LOG_LEVEL: 'debug',
    };
    expect(loadConfig(env)).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/pilot',
      databaseUrl: 'postgres://db/pilot',
      chromePath: '/opt/chrome',
      logLevel: 'debug',
    });
    const flags = { port: '0', host: '::1', 'data-dir': 'relative', 'database-url': 'postgres://other' };
    expect(loadConfig(env, flags)).toMatchObject({
      port: 0,
      host: '::1',
      dataDir: path.resolve('relative'),
      databaseUrl: 'postgres://other',
    });
  });

  it('takes the public addresses and the trusted proxies as lists', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://Pilot.example.com/, http://10.0.0.5:8787',
      TRUST_PROXY: '10.0.0.2, 10.1.0.0/16, ::1',
    });
    expect(config.publicUrls).toEqual(['https://pilot.example.com', 'http://10.0.0.5:8787']);
    // The client is the right-most address of the chain that is not a trusted proxy.
    expect(config.trustProxy.clientOf('10.0.0.2', '198.51.100.1, 203.0.113.9, 10.1.2.3')).toBe('203.0.113.9');
    expect(config.trustProxy.clientOf('::ffff:10.0.0.2', '203.0.113.9')).toBe('203.0.113.9');
    expect(config.trustProxy.clientOf('::1', '2001:db8::7')).toBe('2001:db8::7');
    // From anyone else, X-Forwarded-For is not believed; garbage a proxy passed on ends the chain at that proxy.
    expect(config.trustProxy.clientOf('198.51.100.1', '203.0.113.9')).toBe('198.51.100.1');
    expect(config.trustProxy.clientOf('10.0.0.2', 'not-an-address')).toBe('10.0.0.2');
    expect(loadConfig({}).trustProxy.clientOf('127.0.0.1', '203.0.113.9')).toBe('127.0.0.1');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be 0 to 65535, not "eighty"'],
    [{ PORT: '65536' }, 'PORT must be 0 to 65535, not "65536"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be debug, info, warn or error, not "loud"'],
    [{ HEADLESS: 'maybe' }, 'HEADLESS must be true or false, not "maybe"'],
    [
      { PUBLIC_URL: 'https://pilot.example.com/app' },
      'PUBLIC_URL must be http:// or https:// addresses with no path, separated by commas (such as https://pilot.example.com), not "https://pilot.example.com/app"',
    ],
    [
      { TRUST_PROXY: '10.0.0.2,nginx' },
      'TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas (such as 10.0.0.2,10.1.0.0/16), not "nginx"',
    ],
    [
      { TRUST_PROXY: '10.0.0.0/33' },
      'TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas (such as 10.0.0.2,10.1.0.0/16), not "10.0.0.0/33"',
    ],
    [
      { PROFILE_STATE_MAX_BYTES: '2147483648' },
      'PROFILE_STATE_MAX_BYTES must be at most 1073741824, not "2147483648"',
    ],
  ])('refuses %o with a sentence', (env, sentence) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(sentence));
  });
});

describe('the keys command line', () => {
  async function keys(...args: string[]) {
    const out = { stdout: '', stderr: '' };
    const code = await runKeysCli(
      args,
      { DATA_DIR: '/nonexistent/never-opened' },
      {
        stdout: (text) => {
          out.stdout += text;
        },
        stderr: (text) => {
          out.stderr += text;
        },
      },
    );
    return { code, ...out };
  }

  it('prints its usage for help, --help or nothing', async () => {
    for (const args of [['help'], ['--help'], []]) {
      const result = await keys(...args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: npm run service -- keys <command>/);
      expect(result.stdout).toMatch(/keys create --plan free\|premium\|enterprise \[--name NAME\]/);
    }
  });

  it.each([
    [['create'], 'keys create needs --plan free|premium|enterprise'],
    [['create', '--plan', 'gold'], 'keys create needs --plan free|premium|enterprise'],
    [['revoke'], 'keys revoke needs the key prefix'],
    [['list', 'extra'], 'Unknown command: keys list'],
    [['rotate'], 'Unknown command: keys rotate'],
    [['list', '--colour'], "Unknown option '--colour'"],
  ])('answers %o with exit code 2, a sentence and the usage', async (args, sentence) => {
    const result = await keys(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(sentence);
    expect(result.stderr).toContain('Usage: npm run service -- keys <command>');
  });
});
