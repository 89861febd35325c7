import type { CdpMessage, CdpPipe } from './cdp-pipe';
import type { TargetPreparer } from './held-targets';

/** Every request, so that Chromium asks for the first one's proxy credentials (it asks only for matched ones). */
const EVERY_REQUEST = { handleAuthRequests: true, patterns: [{ urlPattern: '*' }] };

/** What the service answers its relay's challenge with. */
export interface RelayCredentials {
  /** The relay's address, as Chromium names the challenge's origin. */
  proxyServer: string;
  username: string;
  password: string;
}

/**
 * Lets the browser present its relay's secret, which appears on no command line and in no tab: the relay
 * challenges (407) the first request of a browser context, the service's own DevTools session answers with the
 * secret (`Fetch.authRequired`), and Chromium keeps it for that context and sends it with every later request,
 * CONNECT tunnels and workers' requests included. Chromium asks only about requests a `Fetch` pattern matched,
 * so until a context is answered the service intercepts its targets' requests, each passed on untouched at
 * once; then it stops, and the context's traffic passes by DevTools. A challenge from anyone but the relay (a
 * site's own 401) is left to the browser as it would be without the service. Returns the preparer for
 * holdEveryTarget.
 */
export function answerRelayChallenges(pipe: CdpPipe, relay: RelayCredentials): TargetPreparer {
  const answered = new Set<string>();
  /** The sessions intercepting, by the browser context they wait on. */
  const intercepting = new Map<string, string>();
  const send = (method: string, params: Record<string, unknown>, sessionId: string) =>
    pipe.send(method, params, sessionId).catch(() => undefined);

  const contextAnswered = (browserContextId: string) => {
    answered.add(browserContextId);
    for (const [sessionId, context] of intercepting)
      if (context === browserContextId) {
        intercepting.delete(sessionId);
        void send('Fetch.disable', {}, sessionId);
      }
  };

  pipe.onMessage((message: CdpMessage) => {
    const { sessionId, params } = message;
    if (message.method === 'Target.detachedFromTarget' && typeof params?.sessionId === 'string')
      intercepting.delete(params.sessionId);
    const context = sessionId === undefined ? undefined : intercepting.get(sessionId);
    if (sessionId === undefined || context === undefined) return;
    const requestId = params?.requestId;
    if (message.method === 'Fetch.requestPaused')
      void send('Fetch.continueRequest', { requestId }, sessionId);
    if (message.method !== 'Fetch.authRequired') return;
    const challenge = params?.authChallenge as { source?: string; origin?: string } | undefined;
    const fromRelay = challenge?.source === 'Proxy' && challenge.origin === relay.proxyServer;
    const authChallengeResponse = fromRelay
      ? { response: 'ProvideCredentials', username: relay.username, password: relay.password }
      : { response: 'Default' };
    void send('Fetch.continueWithAuth', { requestId, authChallengeResponse }, sessionId).then(() => {
      if (fromRelay) contextAnswered(context);
    });
  });

  return async (target) => {
    const context = target.browserContextId;
    if (context === undefined || answered.has(context)) return;
    intercepting.set(target.sessionId, context);
    await target.send('Fetch.enable', EVERY_REQUEST);
  };
}
