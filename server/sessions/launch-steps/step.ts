import type { CdpMessage, CdpPipe } from '../../browser/cdp-pipe';
import type { CdpVerdict } from '../../browser/cdp-policy';
import type { ContextWatcher, RelayCredentials } from '../../browser/relay-credentials';
import type { OutgoingMessage } from '../../browser/relay-traces';
import type { LaunchOptions } from '../launch-options';

/**
 * One behaviour of every session's browser, as steel-browser's CDP plugins are: the Chromium switches it needs,
 * and what it does over the service's own DevTools pipe once the browser answers, before any client attaches.
 * `all-steps.ts` lists them; a new per-session behaviour is one more step.
 */
export interface LaunchStep {
  /** Switches for Chromium's command line. */
  switches?(launch: LaunchOptions): string[];
  /** Puts the step in force; the steps attach together, and one that throws fails the launch. */
  attach?(browser: AttachingBrowser): Promise<AttachedStep>;
}

/** A session's browser as a step attaches to it: its DevTools answer, and no client is attached yet. */
export interface AttachingBrowser {
  /** The service's own DevTools session: no client sees what is sent here, or can undo it. */
  pipe: CdpPipe;
  launch: LaunchOptions;
  /** The profile's own Downloads folder. */
  downloadDir: string;
  /** What the browser answers its relay's challenge with. */
  relayCredentials: RelayCredentials;
}

/** What an attached step asks of the browser's DevTools clients (CdpMultiplexer). */
export interface AttachedStep {
  /** Changes or refuses a client's command; the steps' in the list's order, and a refusal is final. */
  command?(message: CdpMessage): CdpVerdict;
  /** Told of each browser context a client creates (before the client hears of it) and disposes of. */
  contexts?: ContextWatcher;
  /** Changes each message a client is sent. */
  outgoing?(message: OutgoingMessage): OutgoingMessage;
}
