import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceSuite } from '../../support/service-suite';

/*
 * A live view's sockets sent messages as fast as a client could: a view-only one (which needs no key, only its link)
 * is closed with 1008 and a sentence once past its rate, and the service goes on answering; one at the controls is
 * read more slowly, not dropped.
 */

const suite = serviceSuite({ plan: 'enterprise' });

function opened(url: string): Promise<WebSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/socket`);
  return new Promise((resolve, reject) => {
    socket.once('message', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends `count` messages in one go, then waits for the close or for `quietMs` with none. */
function flood(
  socket: WebSocket,
  count: number,
  quietMs: number,
): Promise<{ code: number; reason: string } | null> {
  return new Promise((resolve) => {
    const quiet = setTimeout(() => resolve(null), quietMs);
    socket.once('close', (code, reason) => {
      clearTimeout(quiet);
      resolve({ code, reason: String(reason) });
    });
    const message = JSON.stringify({ type: 'watch', tab: 'none' });
    for (let sent = 0; sent < count && socket.readyState === WebSocket.OPEN; sent++) socket.send(message);
  });
}

describe('a live view socket flooded with messages', () => {
  it('closes a view-only one with 1008 and a sentence, keeps one at the controls open, and the service answers', async () => {
    const profile = await suite.api.createProfile({ name: 'Flooded' });
    const session = await suite.api.startSession({ profile_id: profile.id, headless: true });

    const viewOnly = await opened(session.live_view_readonly_url as string);
    const flooded = performance.now();
    const closed = await flood(viewOnly, 5_000, 5_000);
    expect(closed).toEqual({
      code: 1008,
      reason: 'more than 100 messages a second; open it again more slowly',
    });
    // The service read no further and ended the socket a second later: a client that floods and opens again
    // at once is slowed to a socket a second.
    expect(performance.now() - flooded).toBeGreaterThanOrEqual(950);

    const control = await opened(session.live_view_url as string);
    expect(await flood(control, 2_000, 1_500)).toBeNull();
    control.close();

    expect(await suite.api.getSession(session.id)).toMatchObject({ status: 'running' });
    await suite.api.stopSession({ session_id: session.id });
  });
});
