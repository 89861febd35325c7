import { describe, expect, it } from 'vitest';
import { parseProxyUrl, proxyLabel } from '../../../lib/api/proxy-url';

const parts = (
  scheme: string,
  host: string,
  port: number,
  username: string | null,
  password: string | null,
) => ({
  scheme,
  host,
  port,
  username,
  password,
});

describe('a proxy as people paste it', () => {
  it.each([
    ['proxy.example:8080', parts('http', 'proxy.example', 8080, null, null)],
    ['proxy.example:8080:bob:se:cret', parts('http', 'proxy.example', 8080, 'bob', 'se:cret')],
    ['proxy.example:8080:bob:p@ss', parts('http', 'proxy.example', 8080, 'bob', 'p@ss')],
    ['bob:secret@proxy.example:8080', parts('http', 'proxy.example', 8080, 'bob', 'secret')],
    ['bob:p@ss:w@Proxy.Example:8080', parts('http', 'proxy.example', 8080, 'bob', 'p@ss:w')],
    ['bob@proxy.example:8080', parts('http', 'proxy.example', 8080, 'bob', null)],
    ['[::1]:3128:bob:pw', parts('http', '[::1]', 3128, 'bob', 'pw')],
    ['bob:100%@10.0.0.1:3128', parts('http', '10.0.0.1', 3128, 'bob', '100%')],
    ['http://h:8080', parts('http', 'h', 8080, null, null)],
    ['https://ann@proxy.example:443/', parts('https', 'proxy.example', 443, 'ann', null)],
    [' socks5://ann:p%40ss@10.0.0.1:1080 ', parts('socks5', '10.0.0.1', 1080, 'ann', 'p@ss')],
    ['SOCKS5H://ann:pw@10.0.0.1:1080', parts('socks5h', '10.0.0.1', 1080, 'ann', 'pw')],
    ['socks4://ann@10.0.0.1:1080', parts('socks4', '10.0.0.1', 1080, 'ann', null)],
    ['socks5://10.0.0.1:1080:ann:pw', parts('socks5', '10.0.0.1', 1080, 'ann', 'pw')],
  ])('reads %s', (text, expected) => {
    expect(parseProxyUrl(text)).toEqual(expected);
  });

  const SHAPES =
    'must be host:port, host:port:user:pass, user:pass@host:port or scheme://[user:pass@]host:port';
  it.each([
    ['proxy.example:8080:bob', SHAPES],
    ['just words', SHAPES],
    ['', SHAPES],
    ['http://h', SHAPES],
    [':pass@h:8080', SHAPES],
    ['bob:pw@h:8080:ann:pw', SHAPES],
    ['ftp://h:21', 'scheme must be one of http, https, socks4, socks5, socks5h'],
    ['h:0', 'port must be between 1 and 65535'],
    ['bob:pw@h:65536', 'port must be between 1 and 65535'],
    ['999.1.1.1:80', 'host 999.1.1.1 is not a valid host name or IP address'],
    ['http://bob:%zz@h:80', 'user name or password has a broken %-escape'],
  ])('says why %j is not a proxy', (text, error) => {
    expect(parseProxyUrl(text)).toEqual({ error });
  });
});

describe('a proxy’s default name', () => {
  it('is user@host:port, never the password, so logins on one host stay apart', () => {
    const names = ['ann:pw1@h:8080', 'bob:pw2@h:8080', 'h:8080'].map((text) => {
      const parsed = parseProxyUrl(text);
      if ('error' in parsed) throw new Error(parsed.error);
      return proxyLabel(parsed);
    });
    expect(names).toEqual(['ann@h:8080', 'bob@h:8080', 'h:8080']);
  });
});
