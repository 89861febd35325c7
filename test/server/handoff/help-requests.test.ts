import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { openEventStream } from '../../support/event-stream';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { call, connect, httpTransport, startPageSession, textOf } from '../../support/mcp-client';

/*
 * Asking for a person, in process, on a real session's browser: an agent's request_human and a run's ask_human
 * step wait for the answer given over the API; another account sees none of it; bounds, one per tab, twice, late.
 */

let service: TestService;
let owner: ReturnType<typeof requester>;
let stranger: ReturnType<typeof requester>;
let ownerKey: string;
let agent: Client;
let session_id: string;
let cdpUrl: string;

beforeAll(async () => {
  service = await startServiceInProcess();
  ownerKey = await service.createKey('enterprise');
  owner = requester(service.baseUrl, ownerKey);
  stranger = requester(service.baseUrl, await service.createKey('enterprise'));
  agent = await connect(httpTransport(service.baseUrl, ownerKey));
  ({ id: session_id, cdpUrl } = await startPageSession(agent, 'Shop 12'));
});

afterAll(async () => {
  if (session_id) await call(agent, 'stop_session', { session_id });
  await agent?.close();
  await service?.close();
});

async function json<T>(response: Promise<Response>, status = 200): Promise<T> {
  const answered = await response;
  const body = (await answered.json()) as T;
  expect(answered.status, JSON.stringify(body)).toBe(status);
  return body;
}

/** The account's open requests, once one is there (a request is made while its asker waits). */
async function openRequest(predicate: (request: HelpRequest) => boolean = () => true): Promise<HelpRequest> {
  for (let tries = 0; tries < 100; tries++) {
    const { data } = await json<{ data: HelpRequest[] }>(owner('GET', '/v1/help-requests?status=open'));
    const found = data.find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no open help request appeared');
}

const answer = (who: ReturnType<typeof requester>, id: string, body: object) =>
  who('POST', `/v1/help-requests/${id}/answer`, { body: JSON.stringify(body), headers: JSON_HEADERS });

describe('request_human', () => {
  it('waits for the answer given over the API, reports both events, and takes one answer', async () => {
    const events = await openEventStream(service.baseUrl, ownerKey);
    const asking = call(agent, 'request_human', {
      session_id,
      reason: 'enter the 2FA code',
      question: 'What code did the phone get?',
    });
    const requested = await events.nextEvent((event) => event.type === 'session.help_requested');
    const request = await openRequest();
    expect(requested.data).toEqual(request);
    expect(request).toMatchObject({
      session_id,
      profile_name: 'Shop 12',
      reason: 'enter the 2FA code',
      question: 'What code did the phone get?',
      choices: [],
      run_id: null,
      status: 'open',
      outcome: null,
    });
    expect(request.tab_id).toMatch(/^[0-9A-F]{32}$/);
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(300_000);

    // One request per tab: the agent's second one, on the same tab, is refused while the first waits.
    const second = await call(agent, 'request_human', { session_id, reason: 'again' });
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('This tab already waits for a person');
    expect(textOf(second)).toContain(request.id);

    const answered = await json<HelpRequest>(
      answer(owner, request.id, { outcome: 'answer', text: '318 204' }),
    );
    expect(answered).toMatchObject({ status: 'closed', outcome: 'answer', text: '318 204' });
    // Said once, as the agent reads it: a sentence whose first word is the outcome, and no structured content.
    expect(await asking).toEqual({
      content: [
        {
          type: 'text',
          text: 'answer: the person wrote "318 204". Take a snapshot to see the page as the person left it.',
        },
      ],
    });
    const ended = await events.nextEvent((event) => event.type === 'session.help_answered');
    expect(ended.data).toEqual(answered);
    events.close();

    const twice = await json<{ code: string; detail: string }>(
      answer(owner, request.id, { outcome: 'done' }),
      409,
    );
    expect(twice.code).toBe('help_answered');
    expect(twice.detail).toContain('already answered (answer)');
    expect(await json(owner('GET', `/v1/help-requests/${request.id}`))).toEqual(answered);
    const { data: open } = await json<{ data: HelpRequest[] }>(owner('GET', '/v1/help-requests?status=open'));
    expect(open).toEqual([]);
  });

  it('offers choices and takes only one of them', async () => {
    const asking = call(agent, 'request_human', {
      session_id,
      reason: 'pick the delivery slot',
      choices: ['Morning', 'Evening'],
    });
    const request = await openRequest();
    const wrong = await json<{ detail: string }>(
      answer(owner, request.id, { outcome: 'choice', choice: 'Noon' }),
      422,
    );
    expect(wrong.detail).toContain('must be one of “Morning”, “Evening”');
    await json(answer(owner, request.id, { outcome: 'choice', choice: 'Evening' }));
    expect(textOf(await asking)).toMatch(/^choice: the person chose "Evening"\. /);
  });

  it('is another account’s to neither see nor answer', async () => {
    const asking = call(agent, 'request_human', { session_id, reason: 'approve the payment' });
    const request = await openRequest();
    const theirs = await json<{ data: HelpRequest[] }>(stranger('GET', '/v1/help-requests?status=open'));
    expect(theirs.data).toEqual([]);
    const everything = await json<{ data: HelpRequest[] }>(stranger('GET', '/v1/help-requests'));
    expect(everything.data).toEqual([]);
    expect((await json<{ code: string }>(stranger('GET', `/v1/help-requests/${request.id}`), 404)).code).toBe(
      'not_found',
    );
    await json(answer(stranger, request.id, { outcome: 'done' }), 404);
    await json(answer(stranger, request.id, { outcome: 'declined' }), 404);
    // The stranger's agent cannot ask on the owner's session either.
    const strangersAgent = await connect(httpTransport(service.baseUrl, await service.createKey('free')));
    const refused = await call(strangersAgent, 'request_human', { session_id, reason: 'let me in' });
    expect(textOf(refused)).toBe('There is no session with this id.');
    await strangersAgent.close();
    // Still the owner's, still open.
    expect((await json<HelpRequest>(owner('GET', `/v1/help-requests/${request.id}`))).status).toBe('open');
    await json(answer(owner, request.id, { outcome: 'declined' }));
    expect(textOf(await asking)).toBe('declined: the person will not do this; find another way or stop.');
  });

  it('bounds every string and list it takes', async () => {
    const tooLong = await call(agent, 'request_human', { session_id, reason: 'x'.repeat(201) });
    expect(textOf(tooLong)).toContain('at most 200 characters');
    const tooMany = await call(agent, 'request_human', {
      session_id,
      reason: 'choose',
      choices: Array.from({ length: 11 }, (_, index) => `Choice ${index}`),
    });
    expect(textOf(tooMany)).toContain('at most 10');
    const longChoice = await call(agent, 'request_human', {
      session_id,
      reason: 'c',
      choices: ['a', 'b'.repeat(101)],
    });
    expect(textOf(longChoice)).toContain('at most 100 characters');
    const longQuestion = await call(agent, 'request_human', {
      session_id,
      reason: 'q',
      question: 'q'.repeat(1001),
    });
    expect(textOf(longQuestion)).toContain('at most 1000 characters');
    const tooLate = await call(agent, 'request_human', { session_id, reason: 'wait', timeout_ms: 3_600_001 });
    expect(textOf(tooLate)).toContain('at most 3600000');

    const asking = call(agent, 'request_human', { session_id, reason: 'type the code' });
    const request = await openRequest();
    const long = await json<{ errors: { path: string }[] }>(
      answer(owner, request.id, { outcome: 'answer', text: 'x'.repeat(2001) }),
      422,
    );
    expect(long.errors[0]?.path).toBe('text');
    await json(answer(owner, request.id, { outcome: 'answer' }), 422);
    await json(answer(owner, request.id, { outcome: 'done', text: 'hi' }), 422);
    await json(answer(owner, request.id, { outcome: 'maybe' }), 422);
    await json(answer(owner, request.id, { outcome: 'done' }));
    expect(textOf(await asking)).toMatch(/^done: the person did what was asked\. /);
  });

  it('times out: the call answers timed_out, and a late answer is told so', async () => {
    const started = Date.now();
    const asking = call(agent, 'request_human', {
      session_id,
      reason: 'nobody is there',
      timeout_ms: 5000,
    });
    const { id, expires_at } = await openRequest((each) => each.reason === 'nobody is there');
    const result = await asking;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(Date.now() - started).toBeLessThan(9000);
    expect(textOf(result)).toBe(`timed_out: nobody answered by ${expires_at}.`);
    const late = await json<{ code: string; detail: string }>(answer(owner, id, { outcome: 'done' }), 409);
    expect(late.code).toBe('help_timed_out');
    expect(late.detail).toContain('timed out');
    expect(await json<HelpRequest>(owner('GET', `/v1/help-requests/${id}`))).toMatchObject({
      status: 'closed',
      outcome: 'timed_out',
    });
  });

  // Last of the session's tests: it closes the agent's tab.
  it('is withdrawn when its tab closes, while the session runs on', async () => {
    const asking = call(agent, 'request_human', { session_id, reason: 'solve the captcha' });
    const request = await openRequest((each) => each.reason === 'solve the captcha');
    const browser = await chromium.connectOverCDP(cdpUrl);
    try {
      const cdp = await browser.newBrowserCDPSession();
      await cdp.send('Target.closeTarget', { targetId: request.tab_id });
    } finally {
      await browser.close();
    }
    expect(textOf(await asking)).toBe('withdrawn: the tab or its session closed before anyone answered.');
    expect(await json<HelpRequest>(owner('GET', `/v1/help-requests/${request.id}`))).toMatchObject({
      status: 'closed',
      outcome: 'withdrawn',
    });
    expect(await json(owner('GET', `/v1/sessions/${session_id}`))).toMatchObject({ status: 'running' });
  });
});

describe('ask_human, a run step', () => {
  it('pauses the run until the person answers, and the answer is the step’s output', async () => {
    const run = await json<{ id: string }>(
      owner('POST', '/v1/automation/run', {
        headers: JSON_HEADERS,
        body: JSON.stringify({
          session_id,
          script: {
            timeout_ms: 60_000,
            steps: [
              { action: 'ask_human', reason: 'solve the captcha', question: 'Which word?', name: 'word' },
              { action: 'evaluate', expression: '1 + 1', name: 'after' },
            ],
          },
        }),
      }),
      202,
    );
    const request = await openRequest((open) => open.run_id === run.id);
    expect(request).toMatchObject({ reason: 'solve the captcha', question: 'Which word?', session_id });
    // The run waits: its first step runs, the next has not started.
    const waiting = await json<{ status: string; steps: { status: string }[] }>(
      owner('GET', `/v1/automation/status?run_id=${run.id}`),
    );
    expect(waiting.status).toBe('running');
    expect(waiting.steps.map((step) => step.status)).toEqual(['running', 'pending']);

    await json(answer(owner, request.id, { outcome: 'answer', text: 'overlooks' }));
    const finished = await json<{ status: string; output: Record<string, unknown> }>(
      owner('GET', `/v1/automation/status?run_id=${run.id}&wait=25&until=finished`),
    );
    expect(finished.status).toBe('succeeded');
    expect(finished.output).toEqual({ word: { outcome: 'answer', text: 'overlooks' }, after: 2 });
  });

  it('times out within the run’s time limit, and the run goes on', async () => {
    const run = await json<{ id: string }>(
      owner('POST', '/v1/automation/run', {
        headers: JSON_HEADERS,
        body: JSON.stringify({
          session_id,
          script: { timeout_ms: 8000, steps: [{ action: 'ask_human', reason: 'anyone?', name: 'asked' }] },
        }),
      }),
      202,
    );
    const request = await openRequest((open) => open.run_id === run.id);
    // The run's time limit comes before the step's default 5 minutes.
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBeLessThan(8000);
    const finished = await json<{ status: string; output: Record<string, unknown> }>(
      owner('GET', `/v1/automation/status?run_id=${run.id}&wait=25&until=finished`),
    );
    expect(finished).toMatchObject({ status: 'succeeded', output: { asked: { outcome: 'timed_out' } } });
  });
});
