import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { createInbox } from '../../../entrypoints/background/inbox';
import { applyEvent, holdStreamWhileNeeded } from '../../../entrypoints/background/live';
import { announceRequest, withdrawRequest } from '../../../entrypoints/background/notifications';
import type { Sessions } from '../../../entrypoints/background/sessions';
import type { EventStream } from '../../../entrypoints/background/stream';
import type { Watcher } from '../../../entrypoints/background/watcher';
import type { ApiClient } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { connection, openRequests } from '../../../lib/storage';
import { installBrowser } from './browser-stubs';

function request(id: string, more: Partial<HelpRequest> = {}): HelpRequest {
  return {
    id,
    session_id: 'ses_1',
    profile_id: 'prf_1',
    profile_name: 'Shop 12',
    tab_id: 'A1B2C3',
    run_id: null,
    reason: 'enter the 2FA code',
    question: null,
    choices: [],
    status: 'open',
    outcome: null,
    text: null,
    choice: null,
    created_at: '2026-11-27T17:00:00.000Z',
    expires_at: '2026-11-27T17:05:00.000Z',
    answered_at: null,
    ...more,
  };
}

const closed = (id: string) => request(id, { status: 'closed', outcome: 'done' });

function inboxWith(client: Partial<ApiClient>) {
  const deps = {
    api: async () => client as ApiClient,
    announce: vi.fn(announceRequest),
    withdraw: vi.fn(withdrawRequest),
    openTab: vi.fn(async (_url: string) => {}),
  };
  return { inbox: createInbox(deps), ...deps };
}

const shown = () => fakeBrowser.notifications.getAll();

beforeEach(() => {
  installBrowser();
});

describe('the worker’s inbox', () => {
  it('announces a request once when it comes, and withdraws it when it ends', async () => {
    const { inbox, announce, withdraw } = inboxWith({});
    await inbox.apply(request('hlp_1', { question: 'Which code came by text?' }));
    await inbox.apply(request('hlp_1', { question: 'Which code came by text?' }));
    expect(announce).toHaveBeenCalledOnce();
    expect(await shown()).toEqual({
      'help:hlp_1': expect.objectContaining({
        title: 'Shop 12 needs you: enter the 2FA code',
        message: 'Which code came by text?',
      }),
    });
    await inbox.apply(request('hlp_2'));
    expect((await openRequests.getValue()).map(({ id }) => id)).toEqual(['hlp_2', 'hlp_1']);

    await inbox.apply(closed('hlp_1'));
    expect(withdraw).toHaveBeenCalledWith('hlp_1');
    expect((await openRequests.getValue()).map(({ id }) => id)).toEqual(['hlp_2']);
    expect(Object.keys(await shown())).toEqual(['help:hlp_2']);
  });

  it('takes the open list from the service when the stream opens afresh', async () => {
    await openRequests.setValue([request('hlp_gone')]);
    const listHelpRequests = vi.fn(async () => ({ data: [request('hlp_new')], next_cursor: null }));
    const { inbox, announce, withdraw } = inboxWith({ listHelpRequests } as Partial<ApiClient>);
    await inbox.refresh();
    expect(listHelpRequests).toHaveBeenCalledWith({ status: 'open', limit: 100 });
    expect(await openRequests.getValue()).toEqual([request('hlp_new')]);
    expect(announce).toHaveBeenCalledWith(request('hlp_new'));
    expect(withdraw).toHaveBeenCalledWith('hlp_gone');
  });

  it('takes over on the tab that asked, through the session’s live view', async () => {
    await openRequests.setValue([request('hlp_1')]);
    const getSession = vi.fn(async () => ({ live_view_url: 'http://127.0.0.1:8787/live/ses_1/tok' }));
    const { inbox, openTab } = inboxWith({ getSession } as unknown as Partial<ApiClient>);
    expect(await inbox.takeOver('hlp_1')).toBe(true);
    expect(getSession).toHaveBeenCalledWith('ses_1');
    expect(openTab).toHaveBeenCalledWith('http://127.0.0.1:8787/live/ses_1/tok#tab=A1B2C3');

    const stopped = inboxWith({ getSession: async () => ({ live_view_url: undefined }) } as never);
    expect(await stopped.inbox.takeOver('hlp_1')).toBe(false);
    expect(stopped.openTab).not.toHaveBeenCalled();
  });

  it('drops a request the service says is over when the person answers it, and says why', async () => {
    await openRequests.setValue([request('hlp_1'), request('hlp_2')]);
    const refusal = new ApiError(
      {
        endpoint: 'POST /v1/help-requests/:id/answer',
        status: 409,
        code: 'help_timed_out' as never,
        detail: 'This request timed out.',
        fieldErrors: [],
        retryAfter: null,
        userMessage: 'This request timed out.',
      },
      'failed',
    );
    const answerHelpRequest = vi.fn(async (id: string) => {
      if (id === 'hlp_2') throw refusal;
      return closed(id);
    });
    const { inbox } = inboxWith({ answerHelpRequest } as unknown as Partial<ApiClient>);
    await inbox.answer('hlp_1', { outcome: 'answer', text: '318 204' });
    expect(answerHelpRequest).toHaveBeenCalledWith('hlp_1', { outcome: 'answer', text: '318 204' });
    expect((await openRequests.getValue()).map(({ id }) => id)).toEqual(['hlp_2']);
    await expect(inbox.answer('hlp_2', { outcome: 'done' })).rejects.toBe(refusal);
    expect(await openRequests.getValue()).toEqual([]);
  });
});

describe('the event stream and the inbox', () => {
  it('sends help events to the inbox, not to the sessions', async () => {
    const sessions = { apply: vi.fn(async () => {}) } as unknown as Sessions;
    const { inbox } = inboxWith({});
    const event = {
      id: '7',
      created_at: '',
      type: 'session.help_requested' as const,
      data: request('hlp_1'),
    };
    await applyEvent(event, { sessions, watcher: {} as Watcher, inbox });
    expect(sessions.apply).not.toHaveBeenCalled();
    expect(await openRequests.getValue()).toEqual([request('hlp_1')]);
  });

  it('holds the stream while a key is set, so a request is heard with nothing else open', async () => {
    const stream = { hold: vi.fn(async () => {}), release: vi.fn(), restart: vi.fn(async () => {}) };
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pp_live_x' });
    holdStreamWhileNeeded(stream as unknown as EventStream);
    await vi.waitFor(() => expect(stream.hold).toHaveBeenCalledWith('inbox'));
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    await vi.waitFor(() => expect(stream.release).toHaveBeenCalledWith('inbox'));
  });
});
