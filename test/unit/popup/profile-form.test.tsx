// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfileForm } from '../../../entrypoints/popup/ProfileForm';
import type { ProfileCreate } from '../../../lib/api/inputs/profiles';
import { cachedProfiles, cachedProxies, drafts } from '../../../lib/storage';
import { type IntentOf, type MockConnector, mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok, profile, proxy, refreshed, typeInto } from './harness';

const created = ({ profile: body }: IntentOf<'profile.create'>) => ok(profile('prf_9', body.name));
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const sentBody = (mock: MockConnector): ProfileCreate | undefined =>
  mock.sentOf('profile.create')[0]?.profile;
const noProxies = refreshed(cachedProxies);

describe('ProfileForm', () => {
  afterEach(cleanup);

  it('puts the focus on Name, the first field, as it opens', async () => {
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': noProxies });
    render(<ProfileForm onDone={() => {}} />);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Profile name')));
    expect(screen.getByRole('form', { name: 'New profile' })).toBeTruthy();
  });

  it('says what is wrong on Save and sends nothing', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'proxies.refresh': noProxies });
    render(<ProfileForm onDone={() => {}} />);
    save();
    expect(await screen.findByText('Profile name must not be empty.')).toBeTruthy();
    expect(screen.getByLabelText('Profile name').getAttribute('aria-invalid')).toBe('true');
    expect(mock.sentOf('profile.create')).toEqual([]);
  });

  it('checks a typed proxy URL as it is typed', async () => {
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': noProxies });
    render(<ProfileForm onDone={() => {}} />);
    typeInto(screen.getByLabelText('Proxy'), 'url');
    typeInto(screen.getByLabelText('Proxy URL'), 'ftp://host:80');
    expect(
      screen.getByText('Proxy URL scheme must be one of http, https, socks4, socks5, socks5h.'),
    ).toBeTruthy();
    typeInto(screen.getByLabelText('Proxy URL'), 'socks5://host:99999');
    expect(screen.getByText('Proxy URL port must be between 1 and 65535.')).toBeTruthy();
    typeInto(screen.getByLabelText('Proxy URL'), 'socks5://user:pw@host:1080');
    expect(screen.getByLabelText('Proxy URL').getAttribute('aria-invalid')).toBe('false');
  });

  it('creates a profile with a saved proxy and tags through the worker, and writes no list itself', async () => {
    const onDone = vi.fn();
    installPopupBrowser();
    const mock = mockConnector({ 'profile.create': created });
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    render(<ProfileForm onDone={onDone} />);
    typeInto(screen.getByLabelText('Profile name'), '  Shop ');
    await screen.findByRole('option', { name: 'Office' });
    typeInto(screen.getByLabelText('Proxy'), 'prx_1');
    typeInto(screen.getByLabelText('Tags'), 'retail, eu,, ');
    save();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sentBody(mock)).toEqual({ name: '  Shop ', proxy_id: 'prx_1', tags: ['retail', 'eu'] });
    // The worker puts the new profile in the cached list (messages.test.ts); the page only reads it.
    expect(await cachedProfiles.getValue()).toBeNull();
    expect(mock.sentOf('proxies.refresh')).toEqual([]);
    expect((await drafts.getValue())['profile:new']).toBeUndefined();
  });

  it('sends a typed proxy URL as `proxy`', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'proxies.refresh': noProxies, 'profile.create': created });
    const onDone = vi.fn();
    render(<ProfileForm onDone={onDone} />);
    typeInto(screen.getByLabelText('Profile name'), 'Checkout');
    typeInto(screen.getByLabelText('Proxy'), 'url');
    typeInto(screen.getByLabelText('Proxy URL'), 'http://u:p@10.0.0.2:8080');
    save();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sentBody(mock)).toEqual({ name: 'Checkout', proxy: 'http://u:p@10.0.0.2:8080' });
  });

  it('keeps the input on failure and shows the service’s complaint at its field', async () => {
    installPopupBrowser();
    mockConnector({
      'proxies.refresh': noProxies,
      'profile.create': () =>
        fail('validation_failed', 'The request is not valid. name: is taken.', {
          status: 422,
          fieldErrors: [{ path: 'name', message: 'is taken' }],
        }),
    });
    render(<ProfileForm onDone={() => {}} />);
    typeInto(screen.getByLabelText('Profile name'), 'Shop');
    save();
    expect((await screen.findByRole('alert')).textContent).toContain('The request is not valid.');
    expect(screen.getByText('Profile name is taken.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Profile name').value).toBe('Shop');
  });

  it('picks up what was typed before the popup closed', async () => {
    installPopupBrowser();
    mockConnector({ 'proxies.refresh': noProxies });
    await drafts.setValue({
      'profile:new': { name: 'Half typed', proxyChoice: '', proxyUrl: '', tags: 'a' },
    });
    render(<ProfileForm onDone={() => {}} />);
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Profile name').value).toBe('Half typed'),
    );
    typeInto(screen.getByLabelText('Tags'), 'a, b');
    await waitFor(async () => expect((await drafts.getValue())['profile:new']?.tags).toBe('a, b'));
  });

  it('puts a typed proxy URL’s password in its own field, never in the draft, and sends it whole', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'proxies.refresh': noProxies, 'profile.create': created });
    const first = render(<ProfileForm onDone={() => {}} />);
    typeInto(screen.getByLabelText('Profile name'), 'Shop');
    typeInto(screen.getByLabelText('Proxy'), 'url');
    typeInto(screen.getByLabelText('Proxy URL'), 'socks5://bob:S3cret@10.1.2.3:1080');
    expect(screen.getByLabelText<HTMLInputElement>('Proxy URL').value).toBe('socks5://bob@10.1.2.3:1080');
    expect(screen.getByLabelText<HTMLInputElement>('Proxy password').value).toBe('S3cret');
    await waitFor(async () => expect((await drafts.getValue())['profile:new']?.proxyUrl).toBeTruthy());
    expect(JSON.stringify(await drafts.getValue())).not.toContain('S3cret');
    first.unmount();

    render(<ProfileForm onDone={() => {}} />);
    await waitFor(() =>
      expect(screen.getByLabelText<HTMLInputElement>('Proxy URL').value).toBe('socks5://bob@10.1.2.3:1080'),
    );
    save();
    expect(
      await screen.findByText('The password is never kept when the popup closes: type it again.'),
    ).toBeTruthy();
    expect(mock.sentOf('profile.create')).toEqual([]);
    typeInto(screen.getByLabelText('Proxy password'), 'S3cret');
    save();
    await waitFor(() =>
      expect(sentBody(mock)).toEqual({ name: 'Shop', proxy: 'socks5://bob:S3cret@10.1.2.3:1080' }),
    );
  });

  it('edits a profile: sends only what changed, so its own proxy keeps its password; a preset fills the fingerprint', async () => {
    installPopupBrowser();
    const shop = profile('prf_1', 'Shop', { proxy: 'http://bob@10.0.0.1:3128', tags: ['a'] });
    const mock = mockConnector({
      'proxies.refresh': noProxies,
      'profile.update': ({ changes }) => ok({ ...shop, ...changes, applies_at_next_start: false } as never),
    });
    const onDone = vi.fn();
    render(<ProfileForm profile={shop} onDone={onDone} />);
    expect(screen.getByLabelText<HTMLInputElement>('Proxy URL').value).toBe('http://bob@10.0.0.1:3128');
    typeInto(screen.getByLabelText('Tags'), 'a, b');
    typeInto(screen.getByLabelText('Start from'), 'presetDe');
    expect(screen.getByLabelText<HTMLInputElement>('Time zone').value).toBe('Europe/Berlin');
    save();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(mock.sentOf('profile.update')[0]).toMatchObject({
      profileId: 'prf_1',
      changes: {
        tags: ['a', 'b'],
        fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin', screen: { width: 1366, height: 768 } },
      },
    });
    expect(mock.sentOf('profile.update')[0]?.changes).not.toHaveProperty('proxy');
    expect(mock.sentOf('profile.update')[0]?.changes).not.toHaveProperty('name');
    // A preset names no user agent: the profile's identity presents one that agrees with the rest.
    expect(mock.sentOf('profile.update')[0]?.changes.fingerprint).not.toHaveProperty('user_agent');
  });

  it('has one Identity section: the saved identity, its check (what a site sees, warnings apart) and the explicit values', async () => {
    installPopupBrowser();
    const shop = profile('prf_1', 'Shop');
    const view = {
      ip: '2.16.1.1',
      place: 'Frankfurt am Main, DE',
      timezone: 'Europe/Berlin',
      languages: ['de-DE', 'de'],
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36',
      screen: { width: 1536, height: 864, pixel_ratio: 1.25 },
      gpu: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
    };
    mockConnector({
      'proxies.refresh': noProxies,
      'profile.checkIdentity': () =>
        ok({
          profile_id: 'prf_1',
          session_id: 'ses_1',
          temporary_session: true,
          engine_version: '156.0.8078.108',
          ok: true,
          surfaces: [
            {
              surface: 'timezone',
              claimed: 'Europe/Berlin',
              seen: { page: 'Europe/Berlin' },
              verdict: 'match',
            },
            { surface: 'webgl', claimed: null, seen: { page: null }, verdict: 'warning' },
          ],
          warnings: [
            {
              surface: 'webgl',
              detail: 'This host has no GPU: sites can tell (WebGL draws with SwiftShader).',
            },
          ],
          exit: null,
          site_view: view,
        } as never),
    });
    render(<ProfileForm profile={shop} onDone={() => {}} />);
    expect(screen.queryByText('Fingerprint')).toBeNull();
    const sections = document.querySelectorAll('summary');
    expect([...sections].map((summary) => summary.textContent)).toEqual(['Identity', 'Cookies']);
    const section = sections[0]?.parentElement as HTMLElement;
    for (const label of ['User agent', 'Language', 'Time zone'])
      expect(section.contains(screen.getByLabelText(label)), label).toBe(true);
    const checkButton = screen.getByRole('button', { name: 'Check identity' });
    expect(section.contains(checkButton)).toBe(true);
    fireEvent.click(checkButton);
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain(
      'A site sees IP 2.16.1.1 (Frankfurt am Main, DE) · time zone Europe/Berlin · languages de-DE, de',
    );
    expect(status.textContent).toContain(`Screen 1536×864 ×1.25 · GPU ${view.gpu} · user agent`);
    expect(status.textContent).toContain(view.user_agent);
    // The host's software GPU is a warning, apart from the surfaces that agree.
    expect(status.textContent).toContain('1 of 1 surfaces agree');
    expect(status.textContent).toContain(
      'Warning: This host has no GPU: sites can tell (WebGL draws with SwiftShader).',
    );
  });
});
