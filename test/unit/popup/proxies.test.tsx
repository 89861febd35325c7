// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Proxies } from '../../../entrypoints/popup/Proxies';
import { cachedProxies } from '../../../lib/storage';
import { byName, fail, installPopupBrowser, later, type Message, ok, proxy, typeInto } from './harness';

const office = proxy('prx_1', 'Office', {
  scheme: 'socks5',
  host: 'proxy.example.com',
  port: 1080,
  username: 'alice',
  has_password: true,
  url: 'socks5://alice@proxy.example.com:1080',
});
const list = (...data: unknown[]) => ok({ data, next_cursor: null });
const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { exact: true });
const sent = (stubs: ReturnType<typeof installPopupBrowser>, call: string) =>
  stubs.sendMessage.mock.calls.find(([message]: Message[]) => message.call === call)?.[0].args;

describe('Proxies', () => {
  afterEach(cleanup);

  it('says it is loading, then what to do when there are none', async () => {
    const first = later();
    installPopupBrowser(byName({ listProxies: () => first.reply }));
    render(<Proxies />);
    expect(await screen.findByText('Loading proxies…')).toBeTruthy();
    first.give(list());
    expect(await screen.findByText(/No saved proxies yet/)).toBeTruthy();
  });

  it('lists name, scheme://host:port and whether a password is set', async () => {
    installPopupBrowser(byName({ listProxies: () => list(office, proxy('prx_2', 'Plain')) }));
    render(<Proxies />);
    expect(await screen.findByText('socks5://proxy.example.com:1080 · password set')).toBeTruthy();
    expect(screen.getByText('http://10.0.0.1:3128 · no password')).toBeTruthy();
  });

  it('shows a failure with Retry', async () => {
    installPopupBrowser(
      byName({ listProxies: () => fail('timeout', 'The service took too long to answer.') }),
    );
    render(<Proxies />);
    expect((await screen.findByRole('alert')).textContent).toContain('The service took too long to answer.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('fills the fields from a pasted proxy URL and creates the proxy', async () => {
    const stubs = installPopupBrowser(
      byName({
        listProxies: () => list(),
        createProxy: (message) => ok(proxy('prx_9', message.args[0].name)),
      }),
    );
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    typeInto(field('Paste a proxy URL'), 'socks5://bob:s%40cret@10.1.2.3:1080');
    expect(field('Scheme').value).toBe('socks5');
    expect(field('Host').value).toBe('10.1.2.3');
    expect(field('Port').value).toBe('1080');
    expect(field('User name').value).toBe('bob');
    expect(field('Password').value).toBe('s@cret');
    typeInto(field('Name'), 'Lab');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lab')).toBeTruthy();
    expect(sent(stubs, 'createProxy')).toEqual([
      { name: 'Lab', scheme: 'socks5', host: '10.1.2.3', port: 1080, username: 'bob', password: 's@cret' },
    ]);
    expect((await cachedProxies.getValue())?.data.map(({ id }) => id)).toEqual(['prx_9']);
  });

  it('checks the port and the pasted URL as they are typed', async () => {
    installPopupBrowser(byName({ listProxies: () => list() }));
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    typeInto(field('Port'), '70000');
    expect(screen.getByText('must be 1 to 65535')).toBeTruthy();
    typeInto(field('Port'), '80a');
    expect(screen.getByText('must be a whole number')).toBeTruthy();
    typeInto(field('Port'), '8080');
    expect(field('Port').getAttribute('aria-invalid')).toBe('false');
    typeInto(field('Paste a proxy URL'), 'gopher://x:1');
    expect(screen.getByText('scheme must be one of http, https, socks4, socks5')).toBeTruthy();
  });

  it('edits a proxy: the password reads "unchanged" and is left out until touched', async () => {
    const stubs = installPopupBrowser(
      byName({
        listProxies: () => list(office),
        updateProxy: (message) => ok({ ...office, name: message.args[1].name }),
      }),
    );
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office' }));
    expect(field('Host').value).toBe('proxy.example.com');
    expect(field('Password').placeholder).toBe('unchanged');
    typeInto(field('Name'), 'Office 2');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Office 2')).toBeTruthy();
    expect(sent(stubs, 'updateProxy')).toEqual([
      'prx_1',
      { name: 'Office 2', scheme: 'socks5', host: 'proxy.example.com', port: 1080, username: 'alice' },
    ]);
  });

  it('removes the password when it is touched and emptied', async () => {
    const stubs = installPopupBrowser(
      byName({ listProxies: () => list(office), updateProxy: () => ok(office) }),
    );
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office' }));
    typeInto(field('Password'), 'x');
    typeInto(field('Password'), '');
    expect(field('Password').placeholder).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent(stubs, 'updateProxy')?.[1].password).toBeNull());
  });
});
