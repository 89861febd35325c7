// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectForm } from '../../../components/ConnectForm';
import { connection, quota } from '../../../lib/storage';
import { type MockConnector, mockConnector } from '../popup/connector-mock';
import { fail, installPopupBrowser, ok, typeInto } from '../popup/harness';

const account = {
  id: 'acc_1',
  name: 'Local',
  plan: 'free' as const,
  hourly_limit: 100,
  session_limit: 2,
  key_prefix: 'pp_live_abcd',
  created_at: '2025-01-06T09:00:00.000Z',
};
const seen = { limit: 100, remaining: 72, resetSeconds: 36, observedAt: 1 };

function fill(url: string, key: string) {
  typeInto(screen.getByLabelText('Service URL'), url);
  typeInto(screen.getByLabelText('API key'), key);
  fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
}

/** Keys of the right shape: the service decides whether it knows them. */
const GOOD = 'pp_live_Good0000000000000000000000000000';
const BAD = 'pp_live_Bad00000000000000000000000000000';

describe('ConnectForm', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  let stubs: ReturnType<typeof installPopupBrowser>;
  let mock: MockConnector;
  const onDone = vi.fn();
  beforeEach(() => {
    // The local service answers its probe.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}')),
    );
    stubs = installPopupBrowser();
    mock = mockConnector({
      'connection.save': ({ apiKey }) =>
        apiKey === GOOD
          ? ok({ account, quota: seen })
          : fail('unauthorized', 'The service refused the API key. Check it, or create a new one.', {
              status: 401,
            }),
    });
  });

  it('is filled in with the local service and asks for a key before sending anything', async () => {
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    expect(screen.getByLabelText<HTMLInputElement>('Service URL').value).toBe('http://127.0.0.1:8787');
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Paste the API key from the service.')).toBeTruthy();
    expect(screen.getByLabelText('API key').getAttribute('aria-invalid')).toBe('true');
    expect(mock.sent()).toEqual([]);
  });

  it('leaves the address empty when no local service answers, and keeps the key in use when one is', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Service URL').value).toBe(''));
    cleanup();
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" keptKey={GOOD} onDone={onDone} />);
    typeInto(screen.getByLabelText('Service URL'), 'https://pilot.example.com');
    expect(screen.getByText('Leave it empty to keep the key in use.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(mock.sentOf('connection.save')).toEqual([
        { type: 'connection.save', serviceUrl: 'https://pilot.example.com', apiKey: GOOD },
      ]),
    );
  });

  it('explains an address that is not http(s)', async () => {
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    fill('ftp://example.com', GOOD);
    expect(await screen.findByText(/Enter an http:\/\/ or https:\/\/ address/)).toBeTruthy();
    expect(mock.sent()).toEqual([]);
  });

  it('says in a sentence why the key was refused, and keeps what was typed', async () => {
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    fill('http://127.0.0.1:8787', BAD);
    expect((await screen.findByRole('alert')).textContent).toContain('The service refused the API key.');
    expect(screen.getByLabelText<HTMLInputElement>('API key').value).toBe(BAD);
    expect((await connection.getValue()).apiKey).toBeNull();
  });

  it('has the worker check and save the connection with one request, and shows the plan and the quota left', async () => {
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    fill('http://127.0.0.1:8787/', GOOD);
    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(
        'Connected to Local on the free plan. 72 of 100 requests left this hour',
      ),
    );
    expect(mock.sent()).toEqual([
      { type: 'connection.save', serviceUrl: 'http://127.0.0.1:8787', apiKey: GOOD },
    ]);
    // The worker saves the key and the quota (messages.test.ts); the form never writes them itself.
    expect((await connection.getValue()).apiKey).toBeNull();
    expect(await quota.getValue()).toBeNull();
  });

  it('asks for the host permission of another origin first, and says so when it is refused', async () => {
    stubs.request.mockResolvedValueOnce(false);
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    fill('https://pilot.example.com', GOOD);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The extension needs your permission to reach pilot.example.com.',
    );
    expect(stubs.request).toHaveBeenCalledWith({ origins: ['https://pilot.example.com/*'] });
    expect(mock.sent()).toEqual([]);
  });

  it('reports a service that cannot be reached', async () => {
    installPopupBrowser();
    mockConnector({
      'connection.save': () =>
        fail('network_error', 'The service at http://127.0.0.1:9 cannot be reached. Is it running?'),
    });
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={onDone} />);
    fill('http://127.0.0.1:9', GOOD);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('cannot be reached. Is it running?'),
    );
  });

  it('refuses a key of the wrong shape at once, without asking the service', async () => {
    installPopupBrowser();
    const mock = mockConnector({});
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={() => {}} />);
    fill('http://127.0.0.1:8787', 'pp_live_abc1234…');
    expect(await screen.findByText(/^This is not an API key: keys start with pp_live_/)).toBeTruthy();
    expect(mock.sentOf('connection.save')).toEqual([]);
  });

  it('drops a “cannot be reached” once the address is changed', async () => {
    installPopupBrowser();
    mockConnector({
      'connection.save': () =>
        fail('network_error', 'The service at http://127.0.0.1:9 cannot be reached. Is it running?'),
    });
    render(<ConnectForm serviceUrl="http://127.0.0.1:8787" onDone={() => {}} />);
    fill('http://127.0.0.1:9', GOOD);
    await screen.findByRole('alert');
    typeInto(screen.getByLabelText('Service URL'), 'http://127.0.0.1:8787');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
