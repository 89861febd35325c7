// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Automation } from '../../../entrypoints/popup/Automation';
import { cachedProfiles, savedScripts } from '../../../lib/storage';
import examples from '../../../public/scripts/examples.json';
import { type Answers, mockConnector } from './connector-mock';
import { fail, installPopupBrowser, ok, profile, refreshed, typeInto, watched } from './harness';

const script = { steps: [{ action: 'goto', url: 'https://example.com/' }] };
const scriptField = () => screen.getByLabelText<HTMLTextAreaElement>('Script (JSON steps)');
const runButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Run' });
const profiles: Answers = {
  'profiles.refresh': refreshed(cachedProfiles, profile('prf_1', 'Shop'), profile('prf_2', 'Mail')),
};
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
    typeInto(scriptField(), '{"steps": [');
    expect(screen.getByText(/^This is not valid JSON yet: /)).toBeTruthy();
    typeInto(
      scriptField(),
      JSON.stringify({ steps: [{ action: 'goto', url: 'ftp://x' }, { action: 'click' }] }),
    );
    expect(screen.getByText('Step 1: url: must be an http:// or https:// address')).toBeTruthy();
    expect(screen.getByText('Step 2: selector: is required')).toBeTruthy();
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
    expect(mock.sentOf('savedScript.set')).toEqual([
      { type: 'savedScript.set', name: 'Open example', script },
    ]);
    typeInto(scriptField(), '');
    await screen.findByRole('option', { name: 'Open example' });
    typeInto(screen.getByLabelText('Load a script'), 'saved:Open example');
    expect(JSON.parse(scriptField().value)).toEqual(script);
    fireEvent.click(await screen.findByRole('button', { name: 'Forget the saved script Open example' }));
    await waitFor(async () => expect(await savedScripts.getValue()).toEqual({}));
  });

  it('runs the script on the chosen profile through the worker', async () => {
    installPopupBrowser();
    const mock = mockConnector({ ...profiles, 'run.start': () => ok(watched({ id: 'run_1' })) });
    render(<Automation />);
    await screen.findByRole('option', { name: 'Mail' });
    typeInto(screen.getByLabelText('Profiles'), 'prf_2');
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

  it('runs the script on each profile picked, saying the cost first and then what became of each', async () => {
    installPopupBrowser();
    const mock = mockConnector({
      ...profiles,
      'run.start': ({ run }) =>
        run.profile_id === 'prf_1'
          ? ok(watched({ id: 'run_1' }))
          : fail('not_found', 'That profile no longer exists.', { status: 404 }),
    });
    render(<Automation />);
    await screen.findByRole('option', { name: 'Mail' });
    const picker = screen.getByLabelText<HTMLSelectElement>('Profiles');
    for (const option of picker.options) option.selected = true;
    fireEvent.input(picker);
    typeInto(scriptField(), JSON.stringify(script));
    await screen.findByText('This takes 2 requests; your plan has no hourly limit.');
    fireEvent.click(screen.getByRole('button', { name: 'Run on 2 profiles' }));
    const outcome = await screen.findByText(/^Started 1 of 2 runs\./);
    expect(outcome.textContent).toBe('Started 1 of 2 runs.\nMail: That profile no longer exists.');
    expect(mock.sent().filter((message) => message.type === 'run.start')).toHaveLength(2);
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
    await screen.findByRole('option', { name: 'Shop' });
    typeInto(scriptField(), JSON.stringify(script));
    fireEvent.click(runButton());
    expect(await screen.findByText('Step 1: url: is not allowed')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The request is not valid.');
    expect(JSON.parse(scriptField().value)).toEqual(script);
  });

  it('says to create a profile first when there is none', async () => {
    installPopupBrowser();
    mockConnector({ 'profiles.refresh': refreshed(cachedProfiles) });
    render(<Automation />);
    expect(await screen.findByText('Create a profile first: scripts run in a profile.')).toBeTruthy();
  });

  it('uses the known profiles without asking the service again', async () => {
    installPopupBrowser();
    const mock = mockConnector({ 'runs.seen': () => ok(undefined) });
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    render(<Automation />);
    await screen.findByRole('option', { name: 'Shop' });
    expect(mock.sentOf('profiles.refresh')).toEqual([]);
  });
});
