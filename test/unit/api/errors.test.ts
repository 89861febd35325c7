import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/errors';
import { jsonResponse, networkFailure, problemResponse } from './fake-fetch';
import { page, profile } from './fixtures';
import { BASE_URL, failure, harness } from './harness';

const NOT_THE_SERVICE = 'This address does not look like a profile-automation service.';

describe('error answers', () => {
  it.each([
    ['revoked', 'This API key has been revoked; create a new one in the dashboard.'],
    ['expired', 'This API key has expired; create a new one in the dashboard.'],
    ['not valid', 'This API key is not valid: check it, or create a new one in the dashboard.'],
  ])('401 for a key %s says what the service says', async (_, detail) => {
    const { api } = harness([problemResponse(401, { code: 'unauthorized', detail })]);
    expect((await failure(api.getAccount())).userMessage).toBe(detail);
  });

  it('401 without a detail: the key was refused', async () => {
    const { api } = harness([
      problemResponse(401, { code: 'unauthorized' }, { 'WWW-Authenticate': 'Bearer' }),
    ]);
    const error = await failure(api.getAccount());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'unauthorized',
      detail: null,
      endpoint: 'GET /v1/account',
      retryAfter: null,
      fieldErrors: [],
      userMessage: 'The service refused the API key. Check it, or create a new one.',
    });
    expect(error.message).toBe('GET /v1/account answered 401 unauthorized');
  });

  it('404 from the service: the thing is gone', async () => {
    const { api } = harness([problemResponse(404, { code: 'not_found', detail: 'No profile prf_9.' })]);
    const error = await failure(api.getProfile('prf_9'));
    expect(error).toMatchObject({ status: 404, code: 'not_found', endpoint: 'GET /v1/profiles/:id' });
    expect(error.userMessage).toBe('That profile no longer exists.');
  });

  it.each([
    ['deleteProxy', 'proxy'],
    ['stopSession', 'session'],
    ['getRun', 'run'],
  ] as const)('404 on %s names the %s', async (name, thing) => {
    const { api } = harness([problemResponse(404, { code: 'not_found' })]);
    const calls = {
      deleteProxy: () => api.deleteProxy('prx_1'),
      stopSession: () => api.stopSession({ session_id: 'ses_1' }),
      getRun: () => api.getRun('run_1'),
    };
    expect((await failure(calls[name]())).userMessage).toBe(`That ${thing} no longer exists.`);
  });

  it('404 for a create tells the service’s detail (the profile it names is unknown)', async () => {
    const { api } = harness([problemResponse(404, { code: 'not_found', detail: 'No profile prf_9' })]);
    expect((await failure(api.startSession({ profile_id: 'prf_9' }))).userMessage).toBe('No profile prf_9.');
  });

  it('404 without a problem document: something else answers at that address', async () => {
    const { api } = harness([
      new Response('<h1>Not Found</h1>', { status: 404, headers: { 'Content-Type': 'text/html' } }),
    ]);
    const error = await failure(api.getProfile('prf_1'));
    expect(error).toMatchObject({
      status: 404,
      code: 'http_error',
      detail: null,
      userMessage: NOT_THE_SERVICE,
    });
  });

  it('409: the detail of the conflict', async () => {
    const { api } = harness([
      problemResponse(409, {
        code: 'profile_running',
        detail: 'The profile has a running session; stop it or delete with force=true',
      }),
    ]);
    const error = await failure(api.deleteProfile('prf_1'));
    expect(error).toMatchObject({
      status: 409,
      code: 'profile_running',
      endpoint: 'DELETE /v1/profiles/:id',
    });
    expect(error.userMessage).toBe('The profile has a running session; stop it or delete with force=true.');
  });

  it('422: the detail with the first field error', async () => {
    const errors = [
      { path: 'name', message: 'must not be empty' },
      { path: 'proxy', message: 'port must be between 1 and 65535' },
    ];
    const { api } = harness([
      problemResponse(422, { code: 'validation_failed', detail: 'The request body is not valid.', errors }),
    ]);
    const error = await failure(api.createProfile({ name: '' }));
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', fieldErrors: errors });
    expect(error.userMessage).toBe('The request body is not valid. name: must not be empty.');
  });

  it('422 whose detail already says the field’s message says it once', async () => {
    const message = 'Line 3 has 1 tab-separated field where cookies.txt has 7';
    const errors = [{ path: '', message }];
    const { api } = harness([
      problemResponse(422, {
        code: 'validation_failed',
        detail: `The cookies could not be read: ${message}.`,
        errors,
      }),
    ]);
    const error = await failure(api.createProfile({ name: 'x' }));
    expect(error.userMessage).toBe(`The cookies could not be read: ${message}.`);
  });

  it('422 without a detail still names the field', async () => {
    const errors = [{ path: 'port', message: 'must be 1 to 65535' }];
    const { api } = harness([problemResponse(422, { code: 'validation_failed', errors })]);
    const error = await failure(api.createProxy({ name: 'p', scheme: 'http', host: 'h', port: 0 }));
    expect(error.userMessage).toBe(
      'The service did not accept the request (HTTP 422). port: must be 1 to 65535.',
    );
  });

  it('429: the limit is used up, with the wait from Retry-After, and no retry', async () => {
    const { api, requests, sleeps } = harness([
      problemResponse(
        429,
        { code: 'rate_limited', detail: 'Hourly limit reached.' },
        { 'Retry-After': '240' },
      ),
    ]);
    const error = await failure(api.listProfiles());
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 240 });
    expect(error.userMessage).toBe('The hourly request limit is used up. Try again in 4 minutes.');
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('429 at the plan’s session cap says the service’s sentence, not that the hourly limit is used up', async () => {
    const detail = 'Your free plan allows 2 sessions at once; stop one to start another.';
    const { api } = harness([problemResponse(429, { code: 'session_limit', detail })]);
    const error = await failure(api.getAccount());
    expect(error).toMatchObject({ status: 429, code: 'session_limit' });
    expect(error.userMessage).toBe(detail);
  });

  it.each([
    ['1', 'Try again in 1 second.'],
    ['45', 'Try again in 45 seconds.'],
    ['61', 'Try again in 2 minutes.'],
    [null, 'Try again later.'],
  ])('429 with Retry-After %s says “%s”', async (retryAfter, ending) => {
    const headers: Record<string, string> = retryAfter === null ? {} : { 'Retry-After': retryAfter };
    const { api } = harness([problemResponse(429, { code: 'rate_limited' }, headers)]);
    const error = await failure(api.getAccount());
    expect(error.userMessage).toBe(`The hourly request limit is used up. ${ending}`);
  });

  it('500 with a problem: its code and detail, not retried', async () => {
    const { api, requests } = harness([
      problemResponse(500, { code: 'internal', detail: 'Something broke' }),
    ]);
    const error = await failure(api.getAccount());
    expect(error).toMatchObject({ status: 500, code: 'internal', detail: 'Something broke' });
    expect(error.userMessage).toBe('Something broke.');
    expect(requests).toHaveLength(1);
  });

  it('500 with a plain text body: a general sentence', async () => {
    const { api } = harness([new Response('Internal Server Error', { status: 500 })]);
    const error = await failure(api.getAccount());
    expect(error).toMatchObject({ status: 500, code: 'http_error', detail: null });
    expect(error.userMessage).toBe('The service ran into a problem (HTTP 500). Try again later.');
  });

  it('a JSON error body that is no problem document is tolerated', async () => {
    const { api } = harness([jsonResponse({ error: { message: 'nope' } }, 400), jsonResponse([1, 2], 403)]);
    expect((await failure(api.getAccount())).userMessage).toBe(
      'The service did not accept the request (HTTP 400).',
    );
    expect((await failure(api.getAccount())).code).toBe('http_error');
  });

  it('a network error is retried, then said to be unreachable', async () => {
    const { api, requests } = harness([networkFailure(), networkFailure(), networkFailure()]);
    const error = await failure(api.getAccount());
    expect(requests).toHaveLength(3);
    expect(error).toMatchObject({
      status: 0,
      code: 'network_error',
      detail: 'fetch failed',
      retryAfter: null,
    });
    expect(error.userMessage).toBe(`The service at ${BASE_URL} cannot be reached. Is it running?`);
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe('answers that do not fit', () => {
  it('a 200 HTML page: not the service', async () => {
    const { api } = harness([
      new Response('<!doctype html><title>Router</title>', { headers: { 'Content-Type': 'text/html' } }),
    ]);
    const error = await failure(api.getAccount());
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', userMessage: NOT_THE_SERVICE });
    expect(error.message).toBe('GET /v1/account answered with something that is not JSON');
  });

  it('an empty 200 where JSON is due: not the service', async () => {
    const { api } = harness([new Response('', { status: 200 })]);
    expect((await failure(api.getProfile('prf_1'))).code).toBe('invalid_response');
  });

  it('a 200 of the wrong shape names the endpoint and the field', async () => {
    const { api } = harness([jsonResponse(page([{ ...profile, status: 'sleeping' }]))]);
    const error = await failure(api.listProfiles());
    expect(error.message).toBe(
      'GET /v1/profiles answered with an unexpected shape: data[0].status: must be one of "idle", "running"',
    );
    expect(error).toMatchObject({
      code: 'invalid_response',
      endpoint: 'GET /v1/profiles',
      userMessage: NOT_THE_SERVICE,
    });
  });

  it('a missing field is named too', async () => {
    const { session_id: _, ...withoutSession } = profile;
    const { api } = harness([jsonResponse(withoutSession, 201)]);
    const error = await failure(api.createProfile({ name: 'Shop' }));
    expect(error.message).toBe(
      'POST /v1/profiles answered with an unexpected shape: session_id: is required',
    );
  });

  it('a wrong shape is not retried', async () => {
    const { api, requests } = harness([jsonResponse({ hello: 'world' })]);
    await failure(api.getAccount());
    expect(requests).toHaveLength(1);
  });
});
