// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { Profiles } from '../../../entrypoints/popup/Profiles';
import type { BulkProblem, BulkResult } from '../../../lib/api/schemas/bulk';
import type { Profile } from '../../../lib/api/schemas/profiles';
import {
  cachedProfiles,
  cachedSessions,
  type PlanLimits,
  plan,
  quota,
  savedScripts,
} from '../../../lib/storage';
import { type IntentOf, mockConnector } from './connector-mock';
import { asRole, installPopupBrowser, ok, profile, typeInto } from './harness';

const named = (count: number) =>
  Array.from({ length: count }, (_, i) => profile(`prf_${i + 1}`, `Profile ${i + 1}`));
const FREE: PlanLimits = { name: 'free', hourlyLimit: 100, sessionLimit: 2 };
const ENTERPRISE: PlanLimits = { name: 'enterprise', hourlyLimit: null, sessionLimit: 50 };

/** The Profiles view over `profiles` (the first page of `total`), on `limits`, with the answers given. */
async function open(
  profiles: Profile[],
  limits: PlanLimits,
  answers: Parameters<typeof mockConnector>[0] = {},
) {
  installPopupBrowser();
  const listing = { data: profiles, filter: {}, next_cursor: null, total: profiles.length, savedAt: 1 };
  await cachedProfiles.setValue(listing);
  await plan.setValue(limits);
  await quota.setValue(
    limits.hourlyLimit === null
      ? { limit: null, remaining: null, resetSeconds: null, observedAt: 1 }
      : { limit: limits.hourlyLimit, remaining: 81, resetSeconds: 600, observedAt: 1 },
  );
  const mock = mockConnector({ 'profiles.refresh': () => ok(undefined), ...answers });
  render(<Profiles />);
  await screen.findByText(profiles[0]?.name ?? '');
  return mock;
}

const pick = (name: string) => fireEvent.click(screen.getByRole('checkbox', { name: `Select ${name}` }));

/** The service's answer to a bulk request: every item done but those `failing` names, with its sentence. */
function answered(intent: IntentOf<'profiles.bulk'>, failing: Record<string, string> = {}): BulkResult {
  const ids = intent.request.select.ids ?? [];
  // The service names each profile it answers for.
  const items = ids.map((id) => ({
    id,
    name: `Profile ${id.slice(4)}`,
    ok: !failing[id],
    ...(failing[id]
      ? { problem: { status: 429, code: 'session_limit', detail: failing[id] as string } }
      : {}),
  }));
  const succeeded = items.filter((item) => item.ok).length;
  const problems = items.flatMap(({ id, name, problem }) =>
    problem ? [{ ...problem, count: 1, profiles: [name], ids: [id] }] : [],
  );
  return {
    action: intent.request.action,
    selected: ids.length,
    succeeded,
    failed: ids.length - succeeded,
    problems,
    items,
  };
}

describe('Bulk actions', () => {
  afterEach(cleanup);

  it('says, before starting more than the plan’s sessions at once, that the others wait for room, and after, how many', async () => {
    const mock = await open(named(3), FREE, {
      'profiles.bulk': (intent) => {
        const result = answered(intent);
        return ok({
          ...result,
          waiting: 1,
          items: result.items.map((item, n) => (n === 2 ? { ...item, waiting: true } : item)),
        });
      },
    });
    await cachedSessions.setValue({ data: [], savedAt: 1 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start 3' }));
    const question = within(
      screen.getByRole('group', {
        name: /^Start 3 profiles\? Your free plan allows 2 sessions at once and 0 are running: 2 of these can start now, the others wait for room\. This spends 1 of the 81 requests left this hour\./,
      }),
    );
    fireEvent.click(question.getByRole('button', { name: 'Start 3' }));
    expect(await screen.findByText('Starting 3: 2 now, 1 waiting for room.')).toBeTruthy();
    // One request for the lot.
    expect(mock.sentOf('profiles.bulk').map(({ request }) => request)).toEqual([
      { select: { ids: ['prf_1', 'prf_2', 'prf_3'] }, action: 'start' },
    ]);
  });

  it('starts at once, without a question, on a plan without an hourly limit and with room, naming each refusal', async () => {
    const sentence = 'Your enterprise plan allows 50 sessions at once; stop one to start another.';
    const mock = await open(named(2), ENTERPRISE, {
      'profiles.bulk': (intent) => ok(answered(intent, { prf_2: sentence })),
    });
    pick('Profile 1');
    pick('Profile 2');
    fireEvent.click(screen.getByRole('button', { name: 'Start 2' }));
    expect(screen.queryByRole('group', { name: /^Start 2 profiles\?/ })).toBeNull();
    const outcome = await screen.findByText(/Starting 1: 1 now, 0 waiting for room\./);
    expect(outcome.textContent).toBe(`Starting 1: 1 now, 0 waiting for room.\nProfile 2: ${sentence}`);
    expect(mock.sentOf('profiles.bulk')).toHaveLength(1);
  });

  it('says a problem many profiles met once, with how many and the first names', async () => {
    const sentence = 'Your enterprise plan allows 50 sessions at once; stop one to start another.';
    await open(named(3), ENTERPRISE, {
      'profiles.bulk': (intent) => {
        const result = answered(intent, { prf_1: sentence, prf_2: sentence, prf_3: sentence });
        const problems = [
          { ...(result.problems[0] as BulkProblem), count: 12, profiles: ['Profile 1', 'Profile 2'] },
        ];
        return ok({ ...result, selected: 13, failed: 13, problems });
      },
    });
    for (const name of ['Profile 1', 'Profile 2', 'Profile 3']) pick(name);
    fireEvent.click(screen.getByRole('button', { name: 'Start 3' }));
    const outcome = await screen.findByText(/^Starting 0: 0 now/);
    expect(outcome.textContent).toBe(
      `Starting 0: 0 now, 0 waiting for room.\n12 profiles (Profile 1, Profile 2, …): ${sentence}\n…and 1 more failed.`,
    );
  });

  it('puts the focus on Cancel, the safe answer, when asked to delete', async () => {
    await open(named(2), FREE);
    pick('Profile 2');
    const remove = screen.getByRole('button', { name: 'Delete 1' });
    expect(remove.classList.contains('danger')).toBe(true);
    fireEvent.click(remove);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
  });

  it('selects every profile the filter matches at once, and acts on them by the filter in its order, in one request', async () => {
    const all = named(120);
    const mock = await open(all.slice(0, 50), ENTERPRISE, {
      'profiles.bulk': ({ request }) =>
        ok({ action: request.action, selected: 120, succeeded: 120, failed: 0, problems: [], items: [] }),
    });
    await cachedProfiles.setValue({
      data: all.slice(0, 50),
      filter: { tag: 'vip', sort: 'name' },
      next_cursor: 'c50',
      total: 120,
      savedAt: 1,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Select all 120 matching' }));
    expect(await screen.findByText('120 selected')).toBeTruthy();
    expect(mock.sentOf('profiles.more')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Tags…' }));
    typeInto(screen.getByLabelText('Tags'), 'team-a, paid');
    fireEvent.click(screen.getByRole('button', { name: 'Add to 120' }));
    expect(await screen.findByText('Tagged 120 of 120.')).toBeTruthy();
    expect(mock.sentOf('profiles.bulk').map(({ request }) => request)).toEqual([
      { select: { filter: { tag: 'vip', sort: 'name' } }, action: 'add_tags', tags: ['team-a', 'paid'] },
    ]);
  });

  it('assigns pasted proxies one per profile, only when there is one per profile', async () => {
    const mock = await open(named(2), ENTERPRISE, { 'profiles.bulk': (intent) => ok(answered(intent)) });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Proxy…' }));
    const paste = screen.getByLabelText('Or paste one proxy per profile');
    typeInto(paste, 'amy:pw@gate.example:8000');
    expect(screen.getByText('1 proxies for 2 profiles: paste one per profile.')).toBeTruthy();
    const apply = screen.getByRole('button', { name: 'Set the proxy of 2' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    typeInto(paste, 'amy:pw@gate.example:8000\n\nsocks5://gate.example:1080\n');
    fireEvent.click(apply);
    expect(await screen.findByText('Set the proxy of 2 of 2.')).toBeTruthy();
    expect(mock.sentOf('profiles.bulk')[0]?.request).toEqual({
      select: { ids: ['prf_1', 'prf_2'] },
      action: 'set_proxy',
      proxies: ['amy:pw@gate.example:8000', 'socks5://gate.example:1080'],
    });
  });

  it('offers a runner only what a runner may do, and no Stop while nothing runs', async () => {
    await open(named(2), { ...FREE, ...asRole('runner') });
    await cachedSessions.setValue({ data: [], savedAt: 1 });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    const bar = screen.getByText('2 selected').parentElement as HTMLElement;
    await waitFor(() =>
      expect(
        within(bar)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Start 2', 'Run script…']),
    );
  });

  it('queues a saved script on the selection as one batch, with a link to follow it in Automation', async () => {
    await open(named(2), ENTERPRISE, {
      'profiles.bulk': (intent) => ok({ ...answered(intent), batch_id: 'bat_1' }),
    });
    await savedScripts.setValue({ Read: { steps: [{ action: 'goto', url: 'https://example.com' }] } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run script…' }));
    await screen.findByRole('option', { name: 'Read' });
    typeInto(screen.getByLabelText('Saved script'), 'Read');
    fireEvent.click(screen.getByRole('button', { name: 'Run on 2' }));
    const link = await screen.findByRole('link', { name: 'follow it in Automation' });
    expect(link.getAttribute('href')).toBe('#/automation');
    expect(link.parentElement?.textContent).toBe('Queued 2 of 2 as one batch: follow it in Automation.');
  });
});
