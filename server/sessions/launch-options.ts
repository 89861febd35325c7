import type { RelayLimits } from '../browser/relay-limits';
import type { FingerprintSettings, ProxySettings } from '../browser/settings';
import type { EgressPolicy } from '../core/egress-policy';
import type { DownloadSettings } from '../downloads/download-setup';
import type { PresentedIdentity } from '../identity/presented';

/** What a session's browser is launched with (launch-browser.ts), as its launch steps read it too. */
export interface LaunchOptions {
  chromePath: string;
  userDataDir: string;
  headless: boolean;
  proxy: ProxySettings | null;
  fingerprint: FingerprintSettings;
  /** The profile's identity, put in force in every target before its scripts run. */
  identity?: PresentedIdentity | null;
  /** Where the browser may connect: every request goes through a relay that enforces it. */
  egress: EgressPolicy;
  /** Told of each tab that closes, by its DevTools target id. */
  onTabClosed?(tabId: string): void;
  /** Told of each destination the egress policy refused. */
  onEgressRefused?(detail: string): void;
  /** How long Chromium may take to answer on its DevTools pipe; 20000 when left out. */
  startTimeoutMs?: number;
  /** How long and how many connections the relay holds; RELAY_LIMITS when left out (tests set shorter ones). */
  relayLimits?: RelayLimits;
  /** Whose the downloads are and the plan's bound on them; unbounded and of no session when left out. */
  downloads?: DownloadSettings;
  /**
   * A browser started only to read or write the profile's cookies: no window, its DevTools clients held to the
   * cookie commands, and never told its relay's secret, so that no request of it leaves the machine
   * (launch-steps/all-steps.ts). Its command line is a session's otherwise: what it stores in the profile is the same.
   */
  cookiesOnly?: boolean;
}

/** A launch that did not give a running browser; the message says why in a sentence. */
export class BrowserLaunchError extends Error {
  override name = 'BrowserLaunchError';
}
