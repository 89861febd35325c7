import { userDataDirArgument } from '../core/processes';
import type { FingerprintSettings } from './settings';

// Background services that would otherwise call Google through the profile's proxy, or rewrite http
// navigations to https. Chromium honours only the last --disable-features, so all go in one.
// Still seen at start-up (Chromium 156) with no switch to stop them: accounts.google.com/ListAccounts
// and an update.googleapis.com check for the on-device model manifest.
// IsolateSandboxedIframes would start a sandboxed `srcdoc` frame in a process of its own without holding it for
// DevTools (it ran before the profile's identity reached it): in its parent's process it gets the parent's.
const DISABLED_FEATURES = [
  'AutofillServerCommunication',
  'DialMediaRouteProvider',
  'HttpsUpgrades',
  'IsolateSandboxedIframes',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'Translate',
];

export interface ChromiumArgumentOptions {
  userDataDir: string;
  headless: boolean;
  /** The session's relay: every request of the browser goes through it. */
  proxyServer: string;
  fingerprint: FingerprintSettings;
  /** The user agent to present when the fingerprint names none: a headless browser's own gives it away. */
  defaultUserAgent?: string | null;
  runningAsRoot: boolean;
  /** A browser for the profile's cookies only (LaunchOptions.cookiesOnly): no window at all. */
  cookiesOnly?: boolean;
  /** The launch steps' switches: after the service's own, so that they win. */
  switches?: string[];
}

/**
 * Without a window there is no tab and so no renderer to start or end, and the network service, which holds the
 * cookies, runs in the browser process: `npm run bench:cookies` measured a start, a write and a stop at about half
 * the time of a browser with its blank tab.
 */
const COOKIES_ONLY_SWITCHES = ['--no-startup-window', '--enable-features=NetworkServiceInProcess2'];

/** The command line for one profile's browser: DevTools over its pipe only, all traffic through its relay. */
export function chromiumArguments(options: ChromiumArgumentOptions): string[] {
  const { fingerprint } = options;
  const args = [
    '--remote-debugging-pipe',
    userDataDirArgument(options.userDataDir),
    `--proxy-server=${options.proxyServer}`,
    // Without this Chromium sends loopback addresses around the proxy.
    '--proxy-bypass-list=<-loopback>',
    // WebRTC would otherwise send UDP around the proxy, to any address.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--password-store=basic',
    '--use-mock-keychain',
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
  ];
  if (options.runningAsRoot) args.push('--no-sandbox');
  if (options.headless) args.push('--headless=new', '--disable-gpu');
  const userAgent = fingerprint.user_agent ?? options.defaultUserAgent;
  if (userAgent) args.push(`--user-agent=${userAgent}`);
  if (fingerprint.language)
    args.push(`--lang=${fingerprint.language}`, `--accept-lang=${fingerprint.language}`);
  if (fingerprint.screen) {
    const { width, height } = fingerprint.screen;
    // At the screen's corner: placed 10 px in (Chromium's default), a window the size of the work area ends past it.
    args.push(`--window-size=${width},${height}`, '--window-position=0,0');
    // A headless browser otherwise reports an 800×600 screen whatever the window size.
    if (options.headless) args.push(`--screen-info={${width}x${height}}`);
  }
  if (options.cookiesOnly) args.push(...COOKIES_ONLY_SWITCHES);
  args.push(...(options.switches ?? []));
  // The page comes last: Debian's /usr/bin/chromium moves every switch before the first plain argument to the end,
  // after the switches that follow it, which would then lose to the ones they should override.
  if (!options.cookiesOnly) args.push('about:blank');
  return args;
}
