// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Automation } from '../../../entrypoints/popup/Automation';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { cachedProfiles, savedScripts } from '../../../lib/storage';
import examples from '../../../public/scripts/examples.json';
import { type Answers, mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok, profile, typeInto, watched } from './harness';

const script = { steps: [{ action: 'goto', url: 'https://example.com/' }] };
const scriptField = () => screen.getByLabelText<HTMLTextAreaElement>('Script (JSON steps)');
const runButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Run' });
const shop = profile('prf_1', 'Shop');
const mail = profile('prf_2', 'Mail');
/** As the worker answers a picker's search: one page, nothing cached. */
const found = (...data: Profile[]) => ok({ data, next_cursor: null });
const profiles: Answers = { 'profiles.search': () => found(shop, mail) };
const pick = async (name: string) => fireEvent.click(await screen.findByRole('checkbox', { name }));
/** As the worker keeps a script by name (or forgets it). */
const keepScripts: Answers = {
  'savedScript.set': async ({ name, script }) => {
    const { [name]: _, ...others } = await savedScripts.getValue();
    await savedScripts.setValue(script ? { ...others, [name]: script } : others);
    return ok(undefined);
  },
};

describe('Automation', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(examples))),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the script as it is typed and shows each error at its step', async () => {
    installPopupBrowser();
    mockConnector({ ...profiles, 'runs.seen': () => ok(undefined) });
    render(<Automation />);
    await pick('Shop');
    typeInto(scriptField(), '{"steps": [');
    expect(screen.getByText(/^This is not valid JSON yet: /)).toBeTruthy();
    typeInto(
      scriptField(),
      JSON.stringify({ steps: [{ action: 'goto', url: 'ftp://x' }, { action: 'click' }] }),
    );
    expect(screen.getByText('Step 1: The field “url” must be an http:// or https:// address.')).toBeTruthy();
    expect(screen.getByText('Step 2: The field “selector” is required.')).toBeTruthy();
    expect(scriptField().getAttribute('aria-invalid')).toBe('true');
    expect(runButton().disabled).toBe(true);
    typeInto(scriptField(), JSON.stringify(script));
    expect(scriptField().getAttribute('aria-invalid')).toBe('false');
    await waitFor(() => expect(runButton().disabled).toBe(false));
  });

  it('offers ready examples that fill the script and its name', async () => {
    installPopupBrowser();
    mockConnector(profiles);
    render(<Automation />);
    const picker = screen.getByLabelText('Load a script');
    await screen.findByRole('option', { name: 'Screenshot of a page' });
    typeInto(picker, 'example:exampleScreenshot');
    expect(JSON.parse(scriptField().value)).toEqual(examples.exampleScreenshot);
    expect(screen.getByLabelText<HTMLInputElement>('Script name').value).toBe('Screenshot of a page');
  });

  it('saves a script by name, loads it back and forgets it', async () => {
    installPopupBrowser();
    const mock = mockConnector({ ...profiles, ...keepScripts });
    render(<Automation />);
    typeInto(scriptField(), JSON.stringify(script));
    fireEvent.click(screen.getByRole('button', { name: 'Save script' }));
    expect(screen.getByText('Give the script a name to save it.')).toBeTruthy();
    typeInto(screen.getByLabelText('Script name'), 'Open example');
    fireEvent.click(screen.getByRole('button', { name: 'Save script' }));
    await waitFor(async () => expect(await savedScripts.getValue()).toEqual({ 'Open example': script }));
    expect(
      await screen.findByText('Saved as “Open example”: load it again from Load a script.'),
    ).toBeTruthy();
    expect(mock.sentOf('savedScript.set')).toEqual([
      { type: 'savedScript.set', name: 'Open example', script },
    ]);
    typeInto(scriptField(), '');
    await screen.findByRole('option', { name: 'Open example' });
    typeInto(screen.getByLabelText('Load a script'), 'saved:Open example');
    expect(JSON.parse(scriptField().value)).toEqual(script);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the saved script Open example' }));
    await waitFor(async () => expect(await savedScripts.getValue()).toEqual({}));
  });

  it('runs the script on the chosen profile through the worker', async () => {
    installPopupBrowser();
    const mock = mockConnector({ ...profiles, 'run.start': () => ok(watched({ id: 'run_1' })) });
    render(<Automation />);
    await pick('Mail');
    typeInto(scriptField(), JSON.stringify(script));
    typeInto(screen.getByLabelText('Script name'), 'Check');
    fireEvent.click(runButton());
    await waitFor(() =>
      expect(mock.sent()).toContainEqual({
        type: 'run.start',
        run: { profile_id: 'prf_2', script, name: 'Check' },
      }),
    );
  });

  it('runs the script on the profiles picked as one batch, saying the cost first and then what became of each', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      ...profiles,
      'profiles.bulk': () =>
        ok({
          action: 'run',
          selected: 2,
          succeeded: 1,
          failed: 1,
          batch_id: 'bat_1',
          problems: [
            {
              status: 404,
              code: 'not_found',
              detail: 'There is no profile with this id.',
              count: 1,
              profiles: ['Mail'],
              ids: ['prf_2'],
            },
          ],
          items: [
            { id: 'prf_1', ok: true, run_id: 'run_1' },
            {
              id: 'prf_2',
              ok: false,
              problem: { status: 404, code: 'not_found', detail: 'There is no profile with this id.' },
            },
          ],
        }),
    });
    render(<Automation />);
    // Tick all shown, then untick them all, then pick one by one.
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Tick all 2 shown' }));
    expect(screen.getByRole('button', { name: 'Run on 2 profiles' })).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Tick all 2 shown' }));
    await pick('Shop');
    await pick('Mail');
    typeInto(scriptField(), JSON.stringify(script));
    await screen.findByText('One request for all of them; your plan has no hourly limit.');
    fireEvent.click(screen.getByRole('button', { name: 'Run on 2 profiles' }));
    const outcome = await screen.findByText(/^Queued 1 of 2 as one batch/);
    expect(outcome.textContent).toBe(
      'Queued 1 of 2 as one batch: follow it in Automation.\nMail: There is no profile with this id.',
    );
    expect(mock.sentOf('profiles.bulk').map(({ request }) => request)).toEqual([
      { select: { ids: ['prf_1', 'prf_2'] }, action: 'run', script },
    ]);
    expect(mock.sentOf('run.start')).toHaveLength(0);
  });

  it('shows the service’s objection at the step it concerns, keeping the script', async () => {
    installPopupBrowser();
    mockConnector({
      ...profiles,
      'run.start': () =>
        fail('validation_failed', 'The request is not valid. script.steps[0].url: is not allowed.', {
          status: 422,
          fieldErrors: [{ path: 'script.steps[0].url', message: 'is not allowed' }],
        }),
    });
    render(<Automation />);
    await pick('Shop');
    typeInto(scriptField(), JSON.stringify(script));
    fireEvent.click(runButton());
    expect(await screen.findByText('Step 1: The field “url” is not allowed.')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The request is not valid.');
    expect(JSON.parse(scriptField().value)).toEqual(script);
  });

  it('says to create a profile first when there is none', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.search': () => found() });
    render(<Automation />);
    expect(await screen.findByText('Create a profile first: scripts run in a profile.')).toBeTruthy();
  });

  it('uses the known profiles without asking the service again', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'runs.seen': () => ok(undefined) });
    await cachedProfiles.setValue({ data: [shop], savedAt: 1 });
    render(<Automation />);
    await screen.findByRole('checkbox', { name: 'Shop' });
    expect(mock.sentOf('profiles.refresh')).toEqual([]);
    expect(mock.sentOf('profiles.search')).toEqual([]);
  });

  it('keeps its own search: the Profiles view’s tag filter does not narrow it, and its typing does not reach that view', async () => {
    installPopupBrowser();
    const tagged = { data: [shop], filter: { tag: 'amazon' }, next_cursor: null, total: 1, savedAt: 1 };
    await cachedProfiles.setValue(tagged);
    const mock = mockConnector({
      'profiles.search': ({ q }) => (q === 'ma' ? found(mail) : found(shop, mail)),
    });
    render(<Automation />);
    expect(await screen.findByRole('checkbox', { name: 'Mail' })).toBeTruthy();
    typeInto(screen.getByRole('searchbox', { name: 'Find a profile' }), 'ma');
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: 'Shop' })).toBeNull());
    expect(mock.sentOf('profiles.search').map(({ q }) => q)).toEqual(['', 'ma']);
    expect(mock.sentOf('profiles.refresh')).toEqual([]);
    expect(await cachedProfiles.getValue()).toEqual(tagged);
  });

  it('says so when the hourly limit refuses its search, instead of an empty list', async () => {
    installPopupBrowser();
    const sentence = 'The hourly request limit is used up. Try again in 4 minutes.';
    mockConnector({
      'profiles.search': () => fail('rate_limited', sentence, { status: 429, retryAfter: 240 }),
    });
    render(<Automation />);
    expect((await screen.findByRole('alert')).textContent).toContain(sentence);
  });

  it('picks nothing by itself: Run waits for a profile and says so', async () => {
    installPopupBrowser();
    mockConnector(profiles);
    render(<Automation />);
    await screen.findByRole('checkbox', { name: 'Shop' });
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
    typeInto(scriptField(), JSON.stringify(script));
    expect(screen.getByText('Pick a profile to run the script on.')).toBeTruthy();
    expect(runButton().disabled).toBe(true);
    await pick('Shop');
    expect(runButton().disabled).toBe(false);
  });

  it('shows no error on a form nobody touched', async () => {
    installPopupBrowser();
    mockConnector(profiles);
    const { container } = render(<Automation />);
    await screen.findByRole('checkbox', { name: 'Shop' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(container.querySelector('.error, .problem, [aria-invalid="true"]')).toBeNull();
  });

  it('reaches every match a page at a time, past the first page', async () => {
    installPopupBrowser();
    const many = Array.from({ length: 60 }, (_, i) => profile(`prf_${i + 1}`, `Profile ${i + 1}`));
    const mock = mockConnector({
      'profiles.search': ({ cursor }) =>
        cursor
          ? ok({ data: many.slice(50), next_cursor: null })
          : ok({ data: many.slice(0, 50), next_cursor: 'c50' }),
    });
    render(<Automation />);
    await screen.findByRole('checkbox', { name: 'Profile 50' });
    expect(screen.queryByRole('checkbox', { name: 'Profile 60' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await pick('Profile 60');
    expect(mock.sentOf('profiles.search')).toEqual([
      { type: 'profiles.search', q: '' },
      { type: 'profiles.search', q: '', cursor: 'c50' },
    ]);
    expect(screen.getByText(/^1 picked: Profile 60\./)).toBeTruthy();
  });

  it('says where a run started from the form appears', async () => {
    installPopupBrowser();
    mockConnector({ ...profiles, 'run.start': () => ok(watched({ id: 'run_1' })) });
    render(<Automation />);
    await pick('Shop');
    typeInto(scriptField(), JSON.stringify(script));
    fireEvent.click(runButton());
    expect(await screen.findByText('Run started: it is first in Recent runs, at the top.')).toBeTruthy();
  });
});
