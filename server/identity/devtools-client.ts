import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { CdpMessage } from '../browser/cdp-pipe';

/** A DevTools client of the service's own on a session's browser, confined by the same policy as any other. */
export interface DevtoolsClient {
  send(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<Record<string, unknown>>;
  /** Every event of this client's sessions. */
  onEvent(listener: (message: CdpMessage) => void): void;
  close(): void;
}

export async function openDevtoolsClient(devtools: CdpMultiplexer): Promise<DevtoolsClient> {
  const waiting = new Map<number, (message: CdpMessage) => void>();
  const listeners = new Set<(message: CdpMessage) => void>();
  let lastId = 0;
  let closedWhy: string | null = null;
  const client = await devtools.attach(
    (text) => {
      const message = JSON.parse(text.toString()) as CdpMessage;
      const answer = message.id === undefined ? undefined : waiting.get(message.id);
      if (answer && message.id !== undefined) {
        waiting.delete(message.id);
        answer(message);
      } else for (const listener of listeners) listener(message);
    },
    (reason) => {
      closedWhy = reason;
      for (const answer of waiting.values()) answer({ error: { code: -32000, message: reason } });
      waiting.clear();
    },
  );
  return {
    send(method, params = {}, sessionId) {
      if (closedWhy !== null) return Promise.reject(new Error(closedWhy));
      lastId += 1;
      const id = lastId;
      return new Promise((resolve, reject) => {
        waiting.set(id, (reply) => {
          if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
          else resolve(reply.result ?? {});
        });
        client.receive(
          JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }),
        );
      });
    },
    onEvent: (listener) => listeners.add(listener),
    close: () => client.detach(),
  };
}
