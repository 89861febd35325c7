import { randomBytes } from 'node:crypto';
import type { CdpMessage, CdpPipe } from '../browser/cdp-pipe';
import { type Engine, engineUserAgent, readEngine } from './engine';
import { type InjectedValues, injectedScript } from './injected-script';
import type { PresentedIdentity } from './presented';

/** An identity in force in a running browser, with the engine it presents. */
export interface AppliedIdentity {
  presented: PresentedIdentity;
  engine: Engine;
  userAgent: string;
  /** `Emulation.setUserAgentOverride`'s parameters, as every page, frame and worker gets them. */
  userAgentOverride: Record<string, unknown>;
}

const PAGE_TYPES = new Set(['page', 'iframe']);
const WORKER_TYPES = new Set(['worker', 'shared_worker', 'service_worker']);
/**
 * Chromium's own default filter, written out: the browser session attaches to every page itself (not to the `tab`
 * target around it, so a page comes as a `page` and gets the page commands) and to every service and shared worker.
 * A page's, frame's or dedicated worker's session attaches to its frames and dedicated workers only: service and
 * shared workers are the browser session's already, and each target has one path. A relayed client's own browser
 * session is announced to the browser session too, whatever the filter: `applyIdentity` leaves it to its client.
 */
const ROOT_ATTACH = {
  autoAttach: true,
  waitForDebuggerOnStart: true,
  flatten: true,
  filter: [{ type: 'browser', exclude: true }, { type: 'tab', exclude: true }, {}],
};
const CHILD_ATTACH = {
  ...ROOT_ATTACH,
  filter: [{ type: 'service_worker', exclude: true }, { type: 'shared_worker', exclude: true }, {}],
};

/**
 * Puts the identity in force over the browser's own DevTools pipe, before any page script runs: the service's
 * session auto-attaches to every target (tabs whoever opens them, out-of-process frames, dedicated, shared and
 * service workers), each held at its start until the overrides are set, then let go. Clients of the relay have
 * sessions of their own and cannot detach this one.
 */
export async function applyIdentity(pipe: CdpPipe, presented: PresentedIdentity): Promise<AppliedIdentity> {
  // Every command goes out at once: the pipe keeps their order, so no target can start before auto-attach.
  const applying = readEngine(pipe).then((engine) => appliedIdentity(presented, engine));
  const nonce = randomBytes(12).toString('hex');
  const pageScript = injectedScript(scriptValues(presented, null, nonce));
  const workerScript = injectedScript(scriptValues(presented, presented.identity.hardware.cpu_cores, nonce));
  const ownSessions = new Set<string>();

  const prepare = async (sessionId: string, type: string, url: string) => {
    // A target may close while it is prepared: its commands fail, and nothing is left to do.
    const send = (method: string, params: Record<string, unknown> = {}) =>
      pipe.send(method, params, sessionId).catch(() => undefined);
    const applied = await applying.catch(() => null);
    if (applied && PAGE_TYPES.has(type)) {
      const commands = pageCommands(applied, pageScript).map(([method, params]) => send(method, params));
      // A tab with no document yet (opened by a link's target, a form's or a middle click, without its opener)
      // answers nothing until its navigation, which the hold stops: its commands are queued in order before the
      // release, and run before its first script. Waiting for their answers held such a tab forever.
      if (url !== '') await Promise.all(commands);
    } else if (applied && WORKER_TYPES.has(type)) {
      // A held service worker answers nothing until it is let go (its script is not even fetched): the commands
      // are queued in order before the release, and run before the worker's own script.
      void send('Network.setUserAgentOverride', applied.userAgentOverride);
      void send('Runtime.evaluate', { expression: workerScript, silent: true });
      // A worker's own workers are held for the identity too: inherited, auto-attach does not hold them.
      if (type === 'worker') void send('Target.setAutoAttach', CHILD_ATTACH);
    }
    await send('Runtime.runIfWaitingForDebugger');
  };

  pipe.onMessage((message: CdpMessage) => {
    const mine = message.sessionId === undefined || ownSessions.has(message.sessionId);
    const child = message.params?.sessionId;
    if (!mine || typeof child !== 'string') return;
    if (message.method === 'Target.detachedFromTarget') ownSessions.delete(child);
    if (message.method !== 'Target.attachedToTarget') return;
    const target = message.params?.targetInfo as { type?: string; url?: string } | undefined;
    // A relayed client's browser session (`Target.attachToBrowserTarget`): what it attaches is a second path.
    if (target?.type === 'browser') return;
    ownSessions.add(child);
    void prepare(child, target?.type ?? '', target?.url ?? '');
  });
  const [applied] = await Promise.all([
    applying,
    presented.geolocation && pipe.send('Browser.grantPermissions', { permissions: ['geolocation'] }),
    pipe.send('Target.setAutoAttach', ROOT_ATTACH),
  ]);
  return applied;
}

function appliedIdentity(presented: PresentedIdentity, engine: Engine): AppliedIdentity {
  const { identity, languages } = presented;
  const hints = identity.client_hints;
  const userAgent = presented.explicitUserAgent ?? engineUserAgent(identity.user_agent, engine);
  return {
    presented,
    engine,
    userAgent,
    userAgentOverride: {
      userAgent,
      platform: identity.navigator_platform,
      ...(languages ? { acceptLanguage: languages.join(',') } : {}),
      userAgentMetadata: {
        brands: engine.brands,
        fullVersionList: engine.fullVersionList,
        fullVersion: engine.fullVersion,
        platform: hints.platform,
        platformVersion: hints.platform_version,
        architecture: hints.architecture,
        bitness: hints.bitness,
        model: hints.model,
        mobile: hints.mobile,
        wow64: false,
        // Chromium's own default; an override without it leaves `formFactors` and its header empty.
        formFactors: [hints.mobile ? 'Mobile' : 'Desktop'],
      },
    },
  };
}

/** Chromium's own overrides wherever it has one; the injected script only for the rest. */
function pageCommands(applied: AppliedIdentity, script: string): [string, Record<string, unknown>][] {
  const { presented } = applied;
  const { hardware } = presented.identity;
  const commands: [string, Record<string, unknown>][] = [
    ['Page.enable', {}],
    ['Emulation.setUserAgentOverride', applied.userAgentOverride],
    ['Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: hardware.cpu_cores }],
    ['Page.addScriptToEvaluateOnNewDocument', { source: script, runImmediately: true }],
    ['Target.setAutoAttach', CHILD_ATTACH],
  ];
  if (presented.locale) commands.push(['Emulation.setLocaleOverride', { locale: presented.locale }]);
  if (presented.timezone)
    commands.push(['Emulation.setTimezoneOverride', { timezoneId: presented.timezone }]);
  if (presented.geolocation) commands.push(['Emulation.setGeolocationOverride', presented.geolocation]);
  if (hardware.touch_points > 0)
    commands.push([
      'Emulation.setTouchEmulationEnabled',
      { enabled: true, maxTouchPoints: hardware.touch_points },
    ]);
  return commands;
}

function scriptValues(presented: PresentedIdentity, cpuCores: number | null, nonce: string): InjectedValues {
  const { hardware, webgl, seed } = presented.identity;
  return { cpuCores, memoryGb: hardware.memory_gb, webgl, seed, nonce };
}
