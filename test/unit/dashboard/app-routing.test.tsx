// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../dashboard/App';

const ACCOUNT = { email: 'local (npm start)', plan: 'enterprise', role: 'owner', has_password: false };

/** The dashboard's endpoints as the pages see them: signed in once the link is spent. */
function service() {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = input.replace('/dashboard/api', '');
      calls.push(`${init?.method ?? 'GET'} ${path}`);
      if (path === '/status') return Response.json({ signup: 'open', account: ACCOUNT });
      return Response.json(path === '/sign-in/link' ? ACCOUNT : { data: [] });
    }),
  );
  return calls;
}

describe('the dashboard’s pages', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('open at Sessions after a sign-in link, and each link of the bar shows its page', async () => {
    const calls = service();
    history.replaceState(null, '', '/dashboard/#/sign-in/a-token');
    render(<App />);
    await screen.findByRole('heading', { name: 'Sessions' });
    expect(location.hash).toBe('#/sessions');
    expect(calls).toContain('POST /sign-in/link');
    for (const [link, heading] of [
      ['Keys', 'API keys'],
      ['Sessions', 'Sessions'],
      ['Members', 'Members'],
      ['Audit', 'Audit log'],
    ]) {
      const target = screen.getByRole('link', { name: link }) as HTMLAnchorElement;
      history.pushState(null, '', target.href);
      fireEvent(window, new HashChangeEvent('hashchange'));
      await screen.findByRole('heading', { name: heading });
    }
  });

  it('takes an invitation’s token out of the address and asks for a password to join', async () => {
    service();
    history.replaceState(null, '', '/dashboard/#/join/the-token');
    render(<App />);
    await screen.findByRole('heading', { name: 'Join a workspace' });
    expect(location.hash).not.toContain('the-token');
  });
});
