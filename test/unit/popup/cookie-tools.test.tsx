// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { CookieTools } from '../../../entrypoints/popup/CookieTools';
import type { CookiesImported } from '../../../lib/api/schemas/cookies';
import { mockConnector } from './connector-mock';
import { installPopupBrowser, later, ok, typeInto } from './harness';

const COOKIES_TXT = '# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t1900000000\tsid\tabc\n';

describe('CookieTools', () => {
  afterEach(cleanup);

  it('says the import is under way on its button until the service answers, then what was imported', async () => {
    installPopupBrowser();
    const answer = later<CookiesImported>();
    const mock = mockConnector({ 'cookies.import': () => answer.reply });
    render(<CookieTools profileId="prf_1" profileName="Shop" />);
    typeInto(screen.getByLabelText('Paste cookies (JSON or cookies.txt)'), COOKIES_TXT);
    fireEvent.click(screen.getByRole('button', { name: 'Import cookies' }));

    const busy = await screen.findByRole('button', { name: 'Importing…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(mock.sentOf('cookies.import')).toEqual([
      { type: 'cookies.import', profileId: 'prf_1', text: COOKIES_TXT },
    ]);

    answer.give(ok({ imported: 1, session_cookies_not_kept: 0, replaced: false }));
    expect(await screen.findByText('Cookies imported: 1.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Importing…' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Import cookies' })).toBeTruthy();
  });
});
