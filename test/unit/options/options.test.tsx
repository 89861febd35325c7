// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { Options } from '../../../components/Options';
import { change } from '../../../entrypoints/background/in-turn';
import { connection, preferences } from '../../../lib/storage';
import { type MockConnector, mockConnector } from '../popup/connector-mock';
import { installPopupBrowser, ok } from '../popup/harness';

const account = {
  id: 'a',
  name: 'Team',
  plan: 'premium' as const,
  hourly_limit: 1000,
  session_limit: 10,
  key_prefix: 'pp',
  created_at: '',
};

describe('Options', () => {
  let stubs: ReturnType<typeof installPopupBrowser>;
  let mock: MockConnector;
  beforeEach(async () => {
    stubs = installPopupBrowser();
    // Each answer does what the worker does with the intent.
    mock = mockConnector({
      'connection.save': async ({ serviceUrl, apiKey }) => {
        await connection.setValue({ serviceUrl, apiKey });
        return ok({ account, quota: { limit: 1000, remaining: 998, resetSeconds: 4, observedAt: 1 } });
      },
      'connection.forgetKey': async () => {
        await connection.setValue({ ...(await connection.getValue()), apiKey: null });
        return ok(undefined);
      },
      'preference.set': async ({ name, value }) => {
        await change(preferences, (saved) => ({ ...saved, [name]: value }));
        return ok(undefined);
      },
    });
    await connection.setValue({
      serviceUrl: 'http://127.0.0.1:8787',
      apiKey: 'pp_live_abcdEFGHijklMNOPqrstUVWXyz012345',
    });
  });
  afterEach(cleanup);

  it('shows the service URL and the key masked', async () => {
    render(<Options />);
    expect(await screen.findByText('Service URL: http://127.0.0.1:8787')).toBeTruthy();
    expect(screen.getByText('API key: pp_live_abcd…')).toBeTruthy();
    expect(document.body.textContent).not.toContain('EFGH');
  });

  it('forgets the key', async () => {
    render(<Options />);
    fireEvent.click(await screen.findByRole('button', { name: 'Forget key' }));
    await waitFor(async () => expect((await connection.getValue()).apiKey).toBeNull());
    expect(mock.sent()).toEqual([{ type: 'connection.forgetKey' }]);
    expect(await screen.findByLabelText('API key')).toBeTruthy();
  });

  it('replaces the key after checking the new one', async () => {
    render(<Options />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change address or key' }));
    fireEvent.input(screen.getByLabelText('API key'), {
      target: { value: 'pp_live_New00000000000000000000000000000' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('API key: pp_live_New0…')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      'Connected to Team on the premium plan. 998 of 1000 requests left this hour',
    );
    expect((await connection.getValue()).apiKey).toBe('pp_live_New00000000000000000000000000000');
    expect(mock.sentOf('connection.save')).toHaveLength(1);
  });

  it('keeps the session default and the notification choices', async () => {
    render(<Options />);
    const headless = await screen.findByLabelText<HTMLInputElement>(
      'Start sessions without a window (headless)',
    );
    expect(headless.checked).toBe(false);
    // Unticked does not mean a window where the service has no display: said beside the box.
    expect(headless.closest('section')?.textContent).toContain(
      'a service on a server or in a container without one (no DISPLAY) starts every session without a window',
    );
    fireEvent.click(headless);
    fireEvent.click(screen.getByLabelText('Notify me when an automation run ends'));
    expect(mock.sent()).toEqual([
      { type: 'preference.set', name: 'headless', value: true },
      { type: 'preference.set', name: 'notifyRuns', value: false },
    ]);
    await waitFor(async () =>
      expect(await preferences.getValue()).toEqual({
        headless: true,
        notifyRuns: false,
        notifySessionExits: true,
      }),
    );
  });

  it('shows how to connect an agent over MCP, the key left out until asked for', async () => {
    render(<Options />);
    const address = await screen.findByLabelText<HTMLInputElement>('MCP address');
    expect(address.value).toBe('http://127.0.0.1:8787/v1/mcp');
    const config = () => screen.getByLabelText<HTMLTextAreaElement>(/^Configuration for /);
    expect(config().value).toBe(
      'claude mcp add --transport http profile-pilot http://127.0.0.1:8787/v1/mcp --header "Authorization: Bearer <your API key>"',
    );
    fireEvent.change(screen.getByLabelText('Client'), { target: { value: 'vscode' } });
    expect(JSON.parse(config().value)).toEqual({
      servers: {
        'profile-pilot': {
          type: 'http',
          url: 'http://127.0.0.1:8787/v1/mcp',
          headers: { Authorization: 'Bearer <your API key>' },
        },
      },
    });
    expect(document.body.innerHTML).not.toContain('EFGH');

    fireEvent.click(screen.getByRole('button', { name: 'Put my key in' }));
    expect(JSON.parse(config().value).servers['profile-pilot'].headers.Authorization).toBe(
      'Bearer pp_live_abcdEFGHijklMNOPqrstUVWXyz012345',
    );
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    fireEvent.click(screen.getByRole('button', { name: 'Copy configuration' }));
    expect(writeText).toHaveBeenCalledWith(config().value);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Leave my key out' }));
    fireEvent.change(screen.getByLabelText('Client'), { target: { value: 'claude-desktop' } });
    expect(JSON.parse(config().value).mcpServers['profile-pilot']).toMatchObject({
      command: 'npm',
      args: [
        '--silent',
        '--prefix',
        '<folder of your profile-pilot copy>',
        'run',
        'mcp',
        '--',
        '--url',
        'http://127.0.0.1:8787',
      ],
      env: { PROFILE_PILOT_KEY: '<your API key>' },
    });
    expect(
      screen.getByText(
        /^Claude Desktop runs the project’s relay \(npm run mcp\) from a copy of profile-pilot: replace <folder of your profile-pilot copy> with that folder/,
      ),
    ).toBeTruthy();
  });

  it('makes the configuration box tall enough for its longest command, wrapped', async () => {
    render(<Options />);
    const config = await screen.findByLabelText<HTMLTextAreaElement>(/^Configuration for /);
    // The Claude Code command is one line of about 120 characters: more rows than one.
    expect(config.value.split('\n')).toHaveLength(1);
    expect(Number(config.getAttribute('rows'))).toBeGreaterThanOrEqual(Math.ceil(config.value.length / 60));
  });

  it('before a key is saved, does not speak of a button that is not there', async () => {
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    render(<Options />);
    expect(
      await screen.findByText('The key is left out: replace <your API key> with your API key.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Put my key in' })).toBeNull();
    expect(document.body.textContent).not.toContain('Put my key in');
  });

  it('lists the keyboard shortcuts as the browser has them', async () => {
    Object.assign(fakeBrowser.commands, {
      getAll: async () => [
        { name: '_execute_action', description: '', shortcut: 'Alt+Shift+O' },
        {
          name: 'start-last-profile',
          description: 'Start a session for the last used profile',
          shortcut: 'Alt+Shift+S',
        },
        { name: 'stop-all-sessions', description: 'Stop all sessions', shortcut: '' },
      ],
    });
    render(<Options />);
    const list = await screen.findByLabelText('The shortcuts set now');
    expect([...list.querySelectorAll('div')].map((item) => item.textContent)).toEqual([
      'Alt+Shift+OOpen the popup',
      'Alt+Shift+SStart a session for the last used profile',
      'not setStop all sessions',
    ]);
  });

  it('links to the browser’s shortcuts page and shows the version', async () => {
    render(<Options />);
    fireEvent.click(await screen.findByRole('link', { name: 'Change the shortcuts' }));
    expect(stubs.createTab).toHaveBeenCalledWith({ url: 'chrome://extensions/shortcuts' });
    expect(screen.getByText('Version 0.1.0')).toBeTruthy();
  });
});
