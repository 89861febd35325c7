import type { CdpPipe } from '../browser/cdp-pipe';
import type { TargetPreparer } from '../browser/held-targets';
import { type Engine, engineUserAgent, readEngine } from './engine';
import { injectedScript } from './injected-script';
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

/** The identity as it is being put in force: the engine read, and what each new target gets before it runs. */
export interface IdentityInForce {
  applying: Promise<AppliedIdentity>;
  /** For holdEveryTarget, which holds every target (tabs whoever opens them, frames, workers) at its start. */
  prepare: TargetPreparer;
}

/**
 * Puts the identity in force over the browser's own DevTools pipe, before any page script runs: each target
 * the service's session holds at its start gets the overrides (see holdEveryTarget).
 */
export function applyIdentity(pipe: CdpPipe, presented: PresentedIdentity): IdentityInForce {
  const applying = Promise.all([
    readEngine(pipe),
    presented.geolocation && pipe.send('Browser.grantPermissions', { permissions: ['geolocation'] }),
  ]).then(([engine]) => appliedIdentity(presented, engine));
  const pageScript = injectedScript(scriptValues(presented, null));
  const workerScript = injectedScript(scriptValues(presented, presented.identity.hardware.cpu_cores));
  const prepare: TargetPreparer = async ({ type, send }) => {
    const applied = await applying.catch(() => null);
    if (applied && PAGE_TYPES.has(type))
      await Promise.all(pageCommands(applied, pageScript).map(([method, params]) => send(method, params)));
    else if (applied && WORKER_TYPES.has(type))
      await Promise.all([
        send('Network.setUserAgentOverride', applied.userAgentOverride),
        send('Runtime.evaluate', { expression: workerScript, silent: true }),
      ]);
  };
  return { applying, prepare };
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

function scriptValues(presented: PresentedIdentity, cpuCores: number | null) {
  const { hardware, webgl, seed } = presented.identity;
  return {
    cpuCores,
    memoryGb: hardware.memory_gb,
    webglVendor: webgl.vendor,
    webglRenderer: webgl.renderer,
    seed,
  };
}
