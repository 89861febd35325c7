import type { CdpMessage } from '../../browser/cdp-pipe';
import type { CdpVerdict } from '../../browser/cdp-policy';
import type { ContextWatcher } from '../../browser/relay-credentials';
import type { OutgoingMessage } from '../../browser/relay-traces';
import type { LaunchOptions } from '../launch-options';
import { cdpPolicy } from './cdp-policy';
import { cookieCommands } from './cookie-commands';
import { downloads } from './downloads';
import { identity } from './identity';
import { relayCredentials } from './relay-credentials';
import type { AttachedStep, AttachingBrowser, LaunchStep } from './step';
import { tabCloses } from './tab-closes';

/**
 * What is done to every session's browser, in this order: a client's command passes the identity's changes before
 * the policy sees it, as the policy has the last word.
 */
export const LAUNCH_STEPS: readonly LaunchStep[] = [
  downloads,
  identity,
  relayCredentials,
  tabCloses,
  cdpPolicy,
];

/**
 * A browser for the profile's cookies only (LaunchOptions.cookiesOnly) has no page to download from, and never
 * answers its relay's challenge, so nothing it asks for passes the relay. The identity stays: a site's service
 * worker may still wake in it.
 */
export const COOKIES_ONLY_STEPS: readonly LaunchStep[] = [identity, cookieCommands];

/** The steps of a launch. */
export function stepsOf(launch: LaunchOptions): readonly LaunchStep[] {
  return launch.cookiesOnly ? COOKIES_ONLY_STEPS : LAUNCH_STEPS;
}

/** What the browser's DevTools multiplexer applies to its clients, from every step together. */
export interface ClientRules {
  policy(message: CdpMessage): CdpVerdict;
  contexts?: ContextWatcher;
  outgoing(message: OutgoingMessage): OutgoingMessage;
}

/** Every step's switches for Chromium's command line. */
export function stepSwitches(launch: LaunchOptions, steps = stepsOf(launch)): string[] {
  return steps.flatMap((step) => step.switches?.(launch) ?? []);
}

/** Attaches every step to the browser, all at once (the pipe keeps their commands' order), and joins their rules. */
export async function attachSteps(
  browser: AttachingBrowser,
  steps = stepsOf(browser.launch),
): Promise<ClientRules> {
  const attached: AttachedStep[] = await Promise.all(steps.map((step) => step.attach?.(browser) ?? {}));
  const commands = attached.flatMap((step) => (step.command ? [step.command] : []));
  const outgoing = attached.flatMap((step) => (step.outgoing ? [step.outgoing] : []));
  const watchers = attached.flatMap((step) => (step.contexts ? [step.contexts] : []));
  return {
    policy: (message) =>
      commands.reduce<CdpVerdict>(
        (verdict, command) => (verdict.allowed ? command(verdict.message) : verdict),
        { allowed: true, message },
      ),
    outgoing: (message) => outgoing.reduce((changed, change) => change(changed), message),
    contexts:
      watchers.length === 0
        ? undefined
        : {
            async created(browserContextId) {
              await Promise.all(watchers.map((watcher) => watcher.created(browserContextId)));
            },
            disposed(browserContextId) {
              for (const watcher of watchers) watcher.disposed(browserContextId);
            },
          },
  };
}
