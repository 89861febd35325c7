import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { ApiError } from '../../../lib/api/errors';
import { routes, sendToWorker } from '../../../lib/messaging';
import { Intents, parseIntent } from '../../../lib/messaging/intents';
import { createReceiver, type Handlers } from '../../../lib/messaging/receive';
import { getMessage, installBrowser, POPUP } from '../background/browser-stubs';

const script = { steps: [{ action: 'goto', url: 'https://example.com' }] };

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const unused = async () => {
    throw new Error('not expected');
  };
  const all = Object.fromEntries(Object.keys(Intents).map((type) => [type, unused]));
  return { ...all, ...overrides } as Handlers;
}

beforeEach(() => {
  installBrowser();
});

describe('the intent schemas', () => {
  it('accept each intent the pages may send', () => {
    const valid = [
      { type: 'profiles.refresh' },
      { type: 'proxies.refresh' },
      { type: 'sessions.refresh' },
      { type: 'profile.create', profile: { name: 'Shop', tags: ['eu'] } },
      { type: 'profile.delete', profileId: 'prf_1', force: true },
      { type: 'proxy.save', proxy: { name: 'Office', scheme: 'http', host: 'h', port: 80 } },
      { type: 'proxy.save', proxyId: 'prx_1', proxy: { name: 'Office' } },
      { type: 'session.start', profileId: 'prf_1' },
      { type: 'session.start', profileId: 'prf_1', headless: true },
      { type: 'session.stop', profileId: 'prf_1' },
      { type: 'session.stopAll' },
      { type: 'run.start', run: { profile_id: 'prf_1', script, name: 'Prices' } },
      { type: 'run.cancel', runId: 'run_1' },
      { type: 'runs.seen' },
      { type: 'connection.save', serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_x' },
      { type: 'connection.forgetKey' },
      { type: 'preference.set', name: 'headless', value: true },
      { type: 'savedScript.set', name: 'Prices', script },
      { type: 'savedScript.set', name: 'Prices', script: null },
      { type: 'pendingView.shown' },
    ];
    for (const message of valid) expect(parseIntent(message).success, JSON.stringify(message)).toBe(true);
  });

  it('reject unknown types, missing or unknown fields, runs without exactly one target, the generic call', () => {
    const invalid = [
      null,
      'session.stopAll',
      { type: 'session.delete' },
      { type: 'session.start' },
      { type: 'session.start', profileId: '' },
      { type: 'session.stopAll', everything: true },
      { type: 'run.start', run: { script } },
      { type: 'run.start', run: { profile_id: 'prf_1', session_id: 'ses_1', script } },
      { type: 'run.start', run: { profile_id: 'prf_1', script: { steps: [] } } },
      { type: 'run.cancel', runId: 7 },
      { type: 'watch.cancel', runId: 'run_1' },
      { type: 'state.read' },
      { type: 'service.call', call: 'startSession', args: [] },
      { type: 'service.check', serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_x' },
      { type: 'connection.save', serviceUrl: 'http://127.0.0.1:8787' },
      { type: 'profile.delete', profileId: 'prf_1' },
      { type: 'profile.create', profile: 'Shop' },
      { type: 'preference.set', name: 'apiKey', value: true },
      { type: 'savedScript.set', name: 'Prices', script: { steps: [] } },
    ];
    for (const message of invalid) expect(parseIntent(message).success, JSON.stringify(message)).toBe(false);
  });
});

describe('the receiver', () => {
  it('runs the handler of a valid request from the extension’s pages and wraps its value', async () => {
    const stopAll = vi.fn(async () => ({ stopped: [], failed: [] }));
    const receive = createReceiver(handlers({ 'session.stopAll': stopAll }));
    expect(await receive({ type: 'session.stopAll' }, POPUP)).toEqual({
      ok: true,
      value: { stopped: [], failed: [] },
    });
    const options = { id: POPUP.id, url: fakeBrowser.runtime.getURL('/options.html') };
    expect(await receive({ type: 'session.stopAll' }, options)).toMatchObject({ ok: true });
    expect(stopAll).toHaveBeenCalledTimes(2);
  });

  it('gives no answer at all to web pages, content scripts and other extensions', () => {
    const receive = createReceiver(handlers());
    expect(
      receive({ type: 'session.stopAll' }, { id: POPUP.id, url: 'https://example.com/' }),
    ).toBeUndefined();
    expect(receive({ type: 'session.stopAll' }, { id: 'other', url: POPUP.url })).toBeUndefined();
    expect(receive({ type: 'session.stopAll' }, {})).toBeUndefined();
  });

  it('turns a service error into its sentence, and any other error into a generic one', async () => {
    const info = {
      endpoint: 'POST /v1/sessions/start',
      status: 503,
      code: 'browser_unavailable',
      detail: 'No Chromium found.',
      fieldErrors: [],
      retryAfter: null,
      userMessage: 'No Chromium found. Install one.',
    };
    const receive = createReceiver(
      handlers({
        'session.start': async () => {
          throw new ApiError(info, 'answered 503');
        },
        'session.stopAll': async () => {
          throw new TypeError('x is undefined');
        },
      }),
    );
    expect(await receive({ type: 'session.start', profileId: 'prf_1' }, POPUP)).toEqual({
      ok: false,
      error: {
        code: 'browser_unavailable',
        message: info.userMessage,
        status: 503,
        retryAfter: null,
        fieldErrors: [],
      },
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await receive({ type: 'session.stopAll' }, POPUP)).toEqual({
      ok: false,
      error: {
        code: 'internal',
        message: getMessage('workerFailed'),
        status: 0,
        retryAfter: null,
        fieldErrors: [],
      },
    });
  });

  it('answers a malformed request with the field at fault', async () => {
    const receive = createReceiver(handlers());
    expect(await receive({ type: 'run.cancel' }, POPUP)).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_message',
        message: 'The worker did not understand the request (runId: is required).',
      },
    });
  });
});

describe('sendToWorker', () => {
  it('resolves with the worker’s reply', async () => {
    const worker = async (message: { type: string }) => ({ ok: true, value: message.type });
    fakeBrowser.runtime.onMessage.addListener(worker as never);
    expect(await sendToWorker({ type: 'runs.seen' })).toEqual({ ok: true, value: 'runs.seen' });
  });

  it('resolves with a sentence, never throws, when the worker cannot be reached or does not answer', async () => {
    const unavailable = {
      ok: false,
      error: {
        code: 'worker_unavailable',
        message: getMessage('workerUnavailable'),
        status: 0,
        retryAfter: null,
        fieldErrors: [],
      },
    };
    expect(await sendToWorker({ type: 'session.stopAll' })).toEqual(unavailable);
    fakeBrowser.runtime.onMessage.addListener(() => undefined);
    expect(await sendToWorker({ type: 'session.stopAll' })).toEqual(unavailable);
  });
});

describe('routes', () => {
  it('are the popup’s location hashes, with ids encoded', () => {
    expect([routes.home, routes.settings, routes.run('run_1'), routes.profile('a/b')]).toEqual([
      '#/',
      '#/settings',
      '#/runs/run_1',
      '#/profiles/a%2Fb',
    ]);
  });
});
