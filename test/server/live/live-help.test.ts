import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { call, connect, httpTransport, startPageSession, textOf } from '../../support/mcp-client';

/*
 * The live view's bar and a request for help, in process on a real session: a controlling viewer is shown the
 * agent's open request and answers it from the bar; a view-only viewer is shown nothing of it and is closed when
 * it answers anyway; an answer to a request the session does not have open is refused with a sentence.
 */

let service: TestService;
let agent: Client;
let session: { id: string; live_view_url: string; live_view_readonly_url: string };

beforeAll(async () => {
  service = await startServiceInProcess();
  const key = await service.createKey('enterprise');
  agent = await connect(httpTransport(service.baseUrl, key));
  const { id } = await startPageSession(agent, 'Bank 3');
  session = await (await requester(service.baseUrl, key)('GET', `/v1/sessions/${id}`)).json();
});

afterAll(async () => {
  if (session) await call(agent, 'stop_session', { session_id: session.id });
  await agent?.close();
  await service?.close();
});

interface Message {
  type: string;
  request?: { id: string; reason: string; question: string | null } | null;
  detail?: string;
}

function openViewer(url: string) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/socket`);
  const messages: Message[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    if (message.type !== 'frame') messages.push(message);
  });
  const next = async (predicate: (message: Message) => boolean): Promise<Message> => {
    for (let tries = 0; tries < 150; tries++) {
      const found = messages.find(predicate);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        return found;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no such message; seen: ${JSON.stringify(messages.map((each) => each.type))}`);
  };
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return { socket, messages, next, closed };
}

it('shows the open request to a controlling viewer, who answers it from the bar; view-only sees none of it', async () => {
  const asking = call(agent, 'request_human', {
    session_id: session.id,
    reason: 'Enter the code',
    question: 'Which code did the phone get?',
    timeout_ms: 60_000,
  });
  const control = openViewer(session.live_view_url);
  const shown = await control.next((message) => message.type === 'help' && Boolean(message.request));
  expect(shown.request).toMatchObject({
    reason: 'Enter the code',
    question: 'Which code did the phone get?',
  });

  const watcher = openViewer(session.live_view_readonly_url);
  await watcher.next((message) => message.type === 'tabs');
  expect(watcher.messages.some((message) => message.type === 'help')).toBe(false);
  watcher.socket.send(
    JSON.stringify({ type: 'help-reply', request: shown.request?.id, answer: { outcome: 'done' } }),
  );
  expect(await watcher.closed).toBe(1008);

  control.socket.send(
    JSON.stringify({ type: 'help-reply', request: 'hr_not_this_one', answer: { outcome: 'done' } }),
  );
  const refused = await control.next((message) => message.type === 'said');
  expect(refused.detail).toContain('no longer open');

  control.socket.send(
    JSON.stringify({
      type: 'help-reply',
      request: shown.request?.id,
      answer: { outcome: 'answer', text: '4711' },
    }),
  );
  const result = await asking;
  expect(textOf(result)).toMatch(/^answer: the person wrote "4711"\. /);
  await control.next((message) => message.type === 'help' && message.request === null);
  control.socket.close();
});
