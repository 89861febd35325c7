import type { CdpMessage, CdpPipe } from './cdp-pipe';

/** Every request, so that Chromium asks for the proxy credentials (it asks only about requests a pattern matched). */
const EVERY_REQUEST = { handleAuthRequests: true, patterns: [{ urlPattern: '*' }] };
const DEFAULT_CONTEXT = 'default';

/** What the service answers its relay's challenge with. */
export interface RelayCredentials {
  /** The relay's address, as Chromium names the challenge's origin. */
  proxyServer: string;
  username: string;
  password: string;
}

/** Told of the browser contexts clients create and dispose of (see CdpMultiplexer). */
export interface ContextWatcher {
  /** Resolves once the context's first request will be answered; the client hears of the context after. */
  created(browserContextId: string): Promise<void>;
  disposed(browserContextId: string): void;
}

/**
 * Lets the browser present its relay's secret, which appears on no command line, in no log and in no tab: the
 * relay challenges (407) the first request of a browser context, the service's own session on the pipe answers
 * with the secret (`Fetch.authRequired`), and Chromium keeps it for that context and sends it with every later
 * request, CONNECT tunnels and workers' requests included. Chromium asks only about requests a `Fetch` pattern
 * matched, so while a context has not been answered the service intercepts the browser's requests, each passed
 * on untouched at once (on the browser target, which alone sees a tab's first navigation), then stops, and the
 * traffic passes by DevTools again. A challenge from anyone but the relay is left to the browser, as without the
 * service. Resolves once the default context is covered.
 */
export async function answerRelayChallenges(pipe: CdpPipe, relay: RelayCredentials): Promise<ContextWatcher> {
  const waiting = new Set<string>([DEFAULT_CONTEXT]);
  const created = new Set<string>();
  let intercepting: Promise<unknown> | null = null;
  const send = (method: string, params: Record<string, unknown> = {}) =>
    pipe.send(method, params).catch(() => undefined);

  const intercept = () => {
    intercepting ??= send('Fetch.enable', EVERY_REQUEST);
    return intercepting;
  };
  const stopIfAllAnswered = () => {
    if (waiting.size > 0 || intercepting === null) return;
    intercepting = null;
    void send('Fetch.disable');
  };
  /** A main frame's id is its tab's target id; a challenge for a frame within is not told apart. */
  const answered = async (frameId: unknown) => {
    const info = (await send('Target.getTargetInfo', { targetId: frameId })) as
      | { targetInfo?: { browserContextId?: string } }
      | undefined;
    const context = info?.targetInfo?.browserContextId;
    if (context === undefined) return;
    waiting.delete(created.has(context) ? context : DEFAULT_CONTEXT);
    stopIfAllAnswered();
  };

  pipe.onMessage((message: CdpMessage) => {
    if (message.sessionId !== undefined) return;
    const params = message.params ?? {};
    const { requestId } = params;
    if (message.method === 'Fetch.requestPaused') void send('Fetch.continueRequest', { requestId });
    if (message.method !== 'Fetch.authRequired') return;
    const challenge = params.authChallenge as { source?: string; origin?: string } | undefined;
    const fromRelay = challenge?.source === 'Proxy' && challenge.origin === relay.proxyServer;
    const authChallengeResponse = fromRelay
      ? { response: 'ProvideCredentials', username: relay.username, password: relay.password }
      : { response: 'Default' };
    void send('Fetch.continueWithAuth', { requestId, authChallengeResponse }).then(() => {
      if (fromRelay) return answered(params.frameId);
    });
  });

  await intercept();
  return {
    async created(browserContextId) {
      created.add(browserContextId);
      waiting.add(browserContextId);
      await intercept();
    },
    disposed(browserContextId) {
      created.delete(browserContextId);
      waiting.delete(browserContextId);
      stopIfAllAnswered();
    },
  };
}
