// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Proxies } from '../../../entrypoints/popup/Proxies';
import type { ProxyCheck, ProxyConfig } from '../../../lib/api/schemas/proxies';
import { cachedProxies, drafts, proxyCheckJob } from '../../../lib/storage';
import { type IntentOf, mockConnector } from './connector-mock';
import { AT, fail, installPopupBrowser, later, ok, proxy, refreshed, typeInto } from './harness';

const office = proxy('prx_1', 'Office', {
  scheme: 'socks5',
  host: 'proxy.example.com',
  port: 1080,
  username: 'alice',
  has_password: true,
  url: 'socks5://alice@proxy.example.com:1080',
});
const listed = (...proxies: ProxyConfig[]) => refreshed(cachedProxies, ...proxies);
const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label, { exact: true });

/** As the worker answers a check: the result goes into the cached proxy as its last check; one write at a time. */
function checkedAs(make: (intent: IntentOf<'proxy.check'>) => ProxyCheck) {
  let writes = Promise.resolve();
  return async (intent: IntentOf<'proxy.check'>) => {
    const check = make(intent);
    writes = writes.then(async () => {
      const cached = await cachedProxies.getValue();
      const last_check = { ...check, checked_at: AT };
      const data = cached?.data.map((p) => (p.id === intent.proxyId ? { ...p, last_check } : p)) ?? [];
      await cachedProxies.setValue({ data, savedAt: 1 });
    });
    await writes;
    return ok(check);
  };
}

/** As the worker answers a save: the proxy it saved goes first in the cached list. */
function savedAs(make: (intent: IntentOf<'proxy.save'>) => ProxyConfig) {
  return async (intent: IntentOf<'proxy.save'>) => {
    const saved = make(intent);
    const others = (await cachedProxies.getValue())?.data.filter(({ id }) => id !== saved.id) ?? [];
    await cachedProxies.setValue({ data: [saved, ...others], savedAt: 1 });
    return ok(saved);
  };
}

describe('Proxies', () => {
  afterEach(cleanup);

  it('says it is loading, then what to do when there are none', async () => {
    const first = later();
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': () => first.reply });
    render(<Proxies />);
    expect(await screen.findByText('Loading proxies…')).toBeTruthy();
    await listed()();
    first.give(ok(undefined));
    expect(await screen.findByText(/No saved proxies yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add the first proxy' }));
    expect(await screen.findByLabelText('Host')).toBeTruthy();
  });

  it('adds a paste of 250 a part at a time, showing how far it is, and ends with the total', async () => {
    installPopupBrowser();
    const parts: number[][] = [];
    const answered = later();
    mockConnector({
      'proxies.refresh': listed(),
      'proxies.paste': async ({ lines, tally }) => {
        parts.push(lines.map(({ line }) => line));
        if (parts.length === 2) await answered.reply;
        const refused = [
          ...tally.refused,
          ...lines.filter(({ text }) => text === 'bad').map((line) => ({ ...line, reason: 'no' })),
        ];
        const added = tally.added + lines.length - (refused.length - tally.refused.length);
        return ok({
          tally: { added, known: 0, refused },
          summary: `${added} added, lines ${refused.map(({ line }) => line).join(' and ')}`,
        });
      },
    });
    render(<Proxies />);
    const lines = Array.from({ length: 250 }, (_, n) =>
      n === 16 || n === 229 ? 'bad' : `gate.example:${n + 1}`,
    );
    const box = await screen.findByLabelText<HTMLTextAreaElement>(/^Proxies, one a line/);
    typeInto(box, lines.join('\n'));
    fireEvent.click(screen.getByRole('button', { name: 'Add proxies' }));
    expect(await screen.findByRole('button', { name: 'Adding… 100 of 250' })).toBeTruthy();
    answered.give(ok(undefined));
    expect((await screen.findByText(/^248 added/)).textContent).toBe(
      '248 added, lines 17 and 230\nThe lines not added are left in the box, to correct.',
    );
    expect(parts.map((part) => [part[0], part.length])).toEqual([
      [1, 100],
      [101, 100],
      [201, 50],
    ]);
    expect(box.value).toBe('bad\nbad');
  });

  it('shows whether a checked proxy works or fails, each its own way, with the country of its exit', async () => {
    installPopupBrowser();
    mockConnector({
      'proxies.refresh': listed(office, proxy('prx_2', 'Plain')),
      'proxy.check': checkedAs(({ proxyId }) =>
        proxyId === 'prx_2'
          ? { ok: false, reason: 'The proxy refused the connection.', took_ms: 12 }
          : {
              ok: true,
              ip: '203.0.113.9',
              country: 'JP',
              city: 'Tokyo',
              timezone: 'Asia/Tokyo',
              took_ms: 40,
            },
      ),
    });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check Plain' }));
    fireEvent.click(screen.getByRole('button', { name: `Check ${office.name}` }));
    expect((await screen.findByText(/^Does not work/)).className).toBe('check-result fails');
    const works = await screen.findByText(/^Works/);
    expect(works.className).toBe('check-result works');
    expect(works.textContent).toBe('Works: exit IP 203.0.113.9 in Tokyo, JP (Asia/Tokyo), 40 ms.');
  });

  it('shows the last check the service kept, whichever device made it', async () => {
    installPopupBrowser();
    const last_check = { ok: true, ip: '203.0.113.9', country: 'JP', took_ms: 40, checked_at: AT };
    mockConnector({ 'proxies.refresh': listed({ ...office, last_check }) });
    render(<Proxies />);
    expect((await screen.findByText(/^Works/)).textContent).toBe('Works: exit IP 203.0.113.9 in JP, 40 ms.');
  });

  it('asks the service to check every saved proxy with Check all, and says how far the job is', async () => {
    installPopupBrowser();
    const job = { id: 'pck_1', total: 502, checked: 0, failing: 0, created_at: AT, finished_at: null };
    const mock = mockConnector({
      'proxies.refresh': listed(proxy('prx_1', 'P1')),
      'proxies.checkAll': async () => {
        await proxyCheckJob.setValue({ ...job, state: 'running' });
        return ok({ ...job, state: 'running' as const });
      },
    });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check all' }));
    expect(await screen.findByText('Checked 0 of 502, 0 failing')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Checking…' })).toBeTruthy();
    // The job's events land in storage as the worker hears them.
    await proxyCheckJob.setValue({ ...job, state: 'running', checked: 230, failing: 12 });
    expect(await screen.findByText('Checked 230 of 502, 12 failing')).toBeTruthy();
    await proxyCheckJob.setValue({ ...job, state: 'done', checked: 502, failing: 20 });
    expect(await screen.findByRole('button', { name: 'Check all' })).toBeTruthy();
    expect(mock.sentOf('proxies.checkAll')).toHaveLength(1);
  });

  it('replaces the failing proxies shown by pasted lines, previewing which line takes whose place', async () => {
    installPopupBrowser();
    const broken = (id: string, name: string) =>
      proxy(id, name, { last_check: { ok: false, reason: 'refused', took_ms: 3, checked_at: AT } });
    const failing = [broken('prx_7', 'Dead one'), broken('prx_8', 'Dead two')];
    const mock = mockConnector({
      'proxies.refresh': listed(...failing),
      'proxies.search': () => ok(failing),
      'proxies.replace': ({ replacements }) =>
        ok({
          profiles: 5,
          replaced: replacements.map(({ from }) => ({ from, to: 'prx_new', profiles: 1 })),
        }),
    });
    render(<Proxies />);
    fireEvent.click(await screen.findByLabelText('Failing only'));
    fireEvent.click(await screen.findByText('Replace failing', { selector: 'summary' }));
    typeInto(
      screen.getByLabelText('New proxies, one a line, for the failing ones in the order shown'),
      'fresh.example:8080\nfresh.example:8081\nspare.example:1',
    );
    const preview = await screen.findByText('The first lines go to:');
    expect(preview.parentElement?.textContent).toContain(
      'Dead one ← fresh.example:8080Dead two ← fresh.example:8081',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Replace failing' }));
    expect(await screen.findByText('Replaced 2 proxies on 5 profiles.')).toBeTruthy();
    expect(mock.sentOf('proxies.replace')[0]?.replacements).toEqual([
      { from: 'prx_7', line: 'fresh.example:8080' },
      { from: 'prx_8', line: 'fresh.example:8081' },
    ]);
  });

  it('lists name, scheme://host:port, whether a password is set and how many profiles use it', async () => {
    installPopupBrowser();
    mockConnector({
      'proxies.refresh': listed(
        { ...office, used_by: 3 },
        proxy('prx_2', 'Plain'),
        proxy('prx_3', 'One', { used_by: 1 }),
      ),
    });
    render(<Proxies />);
    expect(
      await screen.findByText('socks5://proxy.example.com:1080 · password set · used by 3 profiles'),
    ).toBeTruthy();
    expect(screen.getByText('http://10.0.0.1:3128 · no password · used by no profile')).toBeTruthy();
    expect(screen.getByText('http://10.0.0.1:3128 · no password · used by 1 profile')).toBeTruthy();
  });

  it('searches the service for what is typed and for the failing ones, leaving the kept list as it is', async () => {
    installPopupBrowser();
    const failing = proxy('prx_7', 'Broken', {
      last_check: { ok: false, reason: 'The proxy refused the connection.', took_ms: 3, checked_at: AT },
    });
    const mock = mockConnector({
      'proxies.refresh': listed(office, failing),
      'proxies.search': ({ q, failing: only }) =>
        ok(
          [office, failing].filter(
            (p) => p.name.toLowerCase().includes(q.trim().toLowerCase()) && (!only || p === failing),
          ),
        ),
    });
    render(<Proxies />);
    await screen.findByText('Office');
    typeInto(screen.getByLabelText('Search proxies'), 'off');
    await waitFor(() => expect(screen.queryByText('Broken')).toBeNull());
    expect(screen.getByText('Office')).toBeTruthy();
    expect(mock.sentOf('proxies.search')).toEqual([{ type: 'proxies.search', q: 'off', failing: false }]);
    fireEvent.click(screen.getByLabelText('Failing only'));
    expect(await screen.findByText('No proxy matches.')).toBeTruthy();
    typeInto(screen.getByLabelText('Search proxies'), '');
    expect(await screen.findByText('Broken')).toBeTruthy();
    expect(screen.queryByText('Office')).toBeNull();
    expect(mock.sentOf('proxies.search').at(-1)).toEqual({ type: 'proxies.search', q: '', failing: true });
    fireEvent.click(screen.getByLabelText('Failing only'));
    expect(await screen.findByText('Office')).toBeTruthy();
    expect((await cachedProxies.getValue())?.data).toHaveLength(2);
  });

  it('shows a failure with Retry', async () => {
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': () => fail('timeout', 'The service took too long to answer.') });
    render(<Proxies />);
    expect((await screen.findByRole('alert')).textContent).toContain('The service took too long to answer.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('fills the fields from a pasted proxy URL and creates the proxy', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'proxies.refresh': listed(),
      'proxy.save': savedAs(({ proxy: body }) => proxy('prx_9', body.name ?? 'unnamed')),
    });
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
    expect(mock.sentOf('proxy.save')).toEqual([
      {
        type: 'proxy.save',
        proxy: {
          name: 'Lab',
          scheme: 'socks5',
          host: '10.1.2.3',
          port: 1080,
          username: 'bob',
          password: 's@cret',
        },
      },
    ]);
    expect((await cachedProxies.getValue())?.data.map(({ id }) => id)).toEqual(['prx_9']);
  });

  it.each([
    ['user:pass@host:port', 'ann:p@ss@Gate.Example:8080', 'http'],
    ['host:port:user:pass', 'gate.example:8080:ann:p@ss', 'http'],
    ['a socks5h URL', 'socks5h://ann:p%40ss@gate.example:8080', 'socks5h'],
  ])(
    'reads a pasted %s, and without a name leaves the naming (user@host:port) to the service',
    async (_, text, scheme) => {
      installPopupBrowser();
      const mock = mockConnector({
        'proxies.refresh': listed(),
        'proxy.save': savedAs(() => proxy('prx_9', 'ann@gate.example:8080')),
      });
      render(<Proxies />);
      fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
      typeInto(field('Paste a proxy URL'), text);
      expect(field('Paste a proxy URL').value).toBe(`${scheme}://ann@gate.example:8080`);
      expect(field('Password').value).toBe('p@ss');
      expect(field('Name').placeholder).toBe('ann@gate.example:8080');
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('ann@gate.example:8080')).toBeTruthy();
      expect(mock.sentOf('proxy.save')).toEqual([
        {
          type: 'proxy.save',
          proxy: { scheme, host: 'gate.example', port: 8080, username: 'ann', password: 'p@ss' },
        },
      ]);
    },
  );

  it('checks the port and the pasted URL as they are typed', async () => {
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': listed() });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    typeInto(field('Port'), '70000');
    expect(screen.getByText('Port must be 1 to 65535.')).toBeTruthy();
    typeInto(field('Port'), '80a');
    expect(screen.getByText('Port must be a whole number.')).toBeTruthy();
    typeInto(field('Port'), '8080');
    expect(field('Port').getAttribute('aria-invalid')).toBe('false');
    typeInto(field('Paste a proxy URL'), 'gopher://x:1');
    expect(
      screen.getByText('Paste a proxy URL scheme must be one of http, https, socks4, socks5, socks5h.'),
    ).toBeTruthy();
  });

  it('edits a proxy: the password reads "unchanged" and is left out until touched', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'proxies.refresh': listed(office),
      'proxy.save': savedAs(({ proxy: body }) => ({ ...office, name: body.name ?? 'unnamed' })),
    });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office' }));
    expect(field('Host').value).toBe('proxy.example.com');
    expect(field('Password').placeholder).toBe('unchanged');
    typeInto(field('Name'), 'Office 2');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Office 2')).toBeTruthy();
    expect(mock.sentOf('proxy.save')).toEqual([
      {
        type: 'proxy.save',
        proxyId: 'prx_1',
        proxy: {
          name: 'Office 2',
          scheme: 'socks5',
          host: 'proxy.example.com',
          port: 1080,
          username: 'alice',
        },
      },
    ]);
  });

  it('removes the password when it is touched and emptied', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'proxies.refresh': listed(office), 'proxy.save': () => ok(office) });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Office' }));
    typeInto(field('Password'), 'x');
    typeInto(field('Password'), '');
    expect(field('Password').placeholder).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mock.sentOf('proxy.save')[0]?.proxy.password).toBeNull());
  });

  it('forgets its draft once saved, though the keep of the last keystroke was still on its way', async () => {
    installPopupBrowser();
    mockConnector({
      'proxies.refresh': listed(),
      'proxy.save': savedAs(({ proxy: body }) => proxy('prx_9', body.name ?? 'unnamed')),
    });
    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    typeInto(field('Paste a proxy URL'), 'http://alice:S3cret-pass@proxy.example:8080');
    await waitFor(async () => expect((await drafts.getValue())['proxy:new']).toBeTruthy());
    // Storage is slow to answer the keep of the next keystroke, and quick for what follows it.
    const read = drafts.getValue;
    vi.spyOn(drafts, 'getValue').mockImplementationOnce(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return read();
    });
    typeInto(field('Name'), 'Lab');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lab')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await drafts.getValue()).toEqual({});
  });

  it('keeps no password in its draft when the popup closes mid-form, and asks for it again', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      'proxies.refresh': listed(),
      'proxy.save': savedAs(({ proxy: body }) => proxy('prx_9', body.name ?? 'unnamed')),
    });
    const first = render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    typeInto(field('Paste a proxy URL'), 'http://alice:S3cret-pass@proxy.example:8080');
    // The password goes straight to its field; the URL shows without it.
    expect(field('Paste a proxy URL').value).toBe('http://alice@proxy.example:8080');
    expect(field('Password').value).toBe('S3cret-pass');
    await waitFor(async () => expect((await drafts.getValue())['proxy:new']?.host).toBe('proxy.example'));
    expect(JSON.stringify(await drafts.getValue())).not.toContain('S3cret');
    first.unmount();

    render(<Proxies />);
    fireEvent.click(await screen.findByRole('button', { name: 'New proxy' }));
    await waitFor(() => expect(field('User name').value).toBe('alice'));
    typeInto(field('Name'), 'Office');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The password is never kept when the popup closes: type it again.'),
    ).toBeTruthy();
    expect(mock.sentOf('proxy.save')).toEqual([]);
    typeInto(field('Password'), 'S3cret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mock.sentOf('proxy.save')[0]?.proxy.password).toBe('S3cret-pass'));
  });
});
