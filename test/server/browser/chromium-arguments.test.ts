import { describe, expect, it } from 'vitest';
import { type ChromiumArgumentOptions, chromiumArguments } from '../../../server/browser/chromium-arguments';

const BASE: ChromiumArgumentOptions = {
  userDataDir: '/data/profiles/prf_1',
  headless: true,
  proxyServer: 'http://127.0.0.1:4000',
  fingerprint: {},
  runningAsRoot: false,
};

describe('chromiumArguments', () => {
  it('speaks DevTools over its pipe only, never a port, on the profile folder', () => {
    const args = chromiumArguments(BASE);
    expect(args).toContain('--remote-debugging-pipe');
    expect(args.filter((arg) => arg.startsWith('--remote-debugging-port'))).toEqual([]);
    expect(args).toContain('--user-data-dir=/data/profiles/prf_1');
    expect(args.at(-1)).toBe('about:blank');
  });

  it('puts the launch steps’ switches after its own and before the page, where no launcher script moves them', () => {
    const args = chromiumArguments({ ...BASE, switches: ['--screen-info={1704x1065}'] });
    expect(args.slice(-2)).toEqual(['--screen-info={1704x1065}', 'about:blank']);
  });

  it('puts every disabled feature into one flag, since Chromium honours only the last', () => {
    const flags = chromiumArguments(BASE).filter((arg) => arg.startsWith('--disable-features='));
    expect(flags).toHaveLength(1);
    expect(flags[0]?.split('=')[1]?.split(',')).toEqual(
      expect.arrayContaining(['Translate', 'OptimizationHints']),
    );
  });

  it('adds --no-sandbox only as root, and the headless switches only when headless', () => {
    expect(chromiumArguments(BASE)).not.toContain('--no-sandbox');
    expect(chromiumArguments({ ...BASE, runningAsRoot: true })).toContain('--no-sandbox');
    expect(chromiumArguments(BASE)).toEqual(expect.arrayContaining(['--headless=new', '--disable-gpu']));
    const headed = chromiumArguments({ ...BASE, headless: false });
    expect(headed.filter((arg) => arg.startsWith('--headless') || arg === '--disable-gpu')).toEqual([]);
  });

  it('sends everything through its relay, loopback and WebRTC included', () => {
    expect(chromiumArguments(BASE)).toEqual(
      expect.arrayContaining([
        '--proxy-server=http://127.0.0.1:4000',
        '--proxy-bypass-list=<-loopback>',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ]),
    );
  });

  it('turns the fingerprint into switches; the screen size only headless', () => {
    const fingerprint = { user_agent: 'Agent/1.0', language: 'fr-CA', screen: { width: 1366, height: 768 } };
    expect(chromiumArguments({ ...BASE, fingerprint })).toEqual(
      expect.arrayContaining([
        '--user-agent=Agent/1.0',
        '--lang=fr-CA',
        '--accept-lang=fr-CA',
        '--window-size=1366,768',
        '--screen-info={1366x768}',
      ]),
    );
    const headed = chromiumArguments({ ...BASE, headless: false, fingerprint });
    expect(headed).toContain('--window-size=1366,768');
    expect(headed.some((arg) => arg.startsWith('--screen-info'))).toBe(false);
  });

  it('presents the default user agent unless the fingerprint names one', () => {
    const defaultUserAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0';
    expect(chromiumArguments({ ...BASE, defaultUserAgent })).toContain(`--user-agent=${defaultUserAgent}`);
    const named = chromiumArguments({ ...BASE, defaultUserAgent, fingerprint: { user_agent: 'Agent/1.0' } });
    expect(named.filter((arg) => arg.startsWith('--user-agent='))).toEqual(['--user-agent=Agent/1.0']);
    expect(chromiumArguments(BASE).some((arg) => arg.startsWith('--user-agent='))).toBe(false);
  });

  it('gives a browser for cookies only no window and its network service in process, and a session’s switches else', () => {
    const fingerprint = { user_agent: 'Agent/1.0', language: 'fr-CA', screen: { width: 1366, height: 768 } };
    const session = chromiumArguments({ ...BASE, fingerprint });
    expect(chromiumArguments({ ...BASE, fingerprint, cookiesOnly: true })).toEqual([
      ...session.filter((arg) => arg !== 'about:blank'),
      '--no-startup-window',
      '--enable-features=NetworkServiceInProcess2',
    ]);
  });
});
