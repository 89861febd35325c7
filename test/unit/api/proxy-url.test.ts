import { describe, expect, it } from 'vitest';
import { parseProxyLine } from '../../../lib/api/proxy-url';

describe('a line of a pasted proxy list', () => {
  it('reads a URL, host:port and host:port:user:pass (a password may hold colons)', () => {
    expect(parseProxyLine(' socks5://ann:p%40ss@10.0.0.1:1080 ')).toEqual({
      scheme: 'socks5',
      host: '10.0.0.1',
      port: 1080,
      username: 'ann',
      password: 'p@ss',
    });
    expect(parseProxyLine('proxy.example:8080')).toEqual({
      scheme: 'http',
      host: 'proxy.example',
      port: 8080,
      username: null,
      password: null,
    });
    expect(parseProxyLine('proxy.example:8080:bob:se:cret')).toMatchObject({
      scheme: 'http',
      username: 'bob',
      password: 'se:cret',
    });
  });

  it('says what shape a line must have when it has none of them', () => {
    expect(parseProxyLine('proxy.example:8080:bob')).toEqual({
      error: 'must be host:port or host:port:user:pass',
    });
    expect(parseProxyLine('just words')).toEqual({
      error: 'must be scheme://user:pass@host:port or host:port:user:pass',
    });
    expect(parseProxyLine('ftp://h:21')).toEqual({
      error: 'scheme must be one of http, https, socks4, socks5',
    });
  });
});
