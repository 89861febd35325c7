/**
 * Bulk work on a thousand profiles in the real popup against the real service: all matching a tag selected at
 * once, a pasted list of a thousand proxies assigned one to one, tags added, a script run on them as one batch.
 * Three browsers at a time (MAX_BROWSERS): the batch's runs beyond them wait their turn in the queue (none fails
 * for want of room), and the batch is cancelled rather than waited for (its retry and export:
 * test/server/automation/batches.test.ts). A batch of sixty others is waited for: it ends all succeeded by itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun, Batch } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';
import { goTo, saveScript } from './support/popup';

const controller = controllerForFile({ env: async () => ({ MAX_BROWSERS: '3' }) });
const COUNT = 1000;
const SIXTY = 60;
/** One proxy per profile, each a login of its own on a loopback port (the operator allows loopback here). */
const PROXIES = Array.from(
  { length: COUNT },
  (_, index) => `user${index}:pw${index}@127.0.0.1:${20_000 + index}`,
);

describe('bulk work on a thousand profiles', () => {
  beforeAll(async () => {
    const { api } = controller;
    const rows = [
      ...Array.from({ length: COUNT }, (_, n) => `Fleet ${String(n + 1).padStart(4, '0')},,fleet,`),
      ...Array.from({ length: SIXTY }, (_, n) => `Batch ${n + 1},,sixty,`),
    ];
    const imported = await api.send('POST', '/v1/profiles/import', {
      headers: { 'Content-Type': 'text/csv', 'Idempotency-Key': crypto.randomUUID() },
      body: ['name,proxy,tags,notes', ...rows].join('\n'),
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    await createProfile(api, { name: 'Not in the fleet' });
  }, 120_000);

  it('assigns a thousand pasted proxies one to one, tags them and runs a script on them as one batch', async () => {
    const { api, extension } = controller;
    const popup = await extension.openPopup('#/automation');
    await saveScript(popup, 'Touch', { steps: [{ action: 'wait_for', ms: 0 }] });
    await goTo(popup, 'Profiles');

    const count = popup.getByRole('status').filter({ hasText: /profiles?$/ });
    const selectFleet = async () => {
      await popup.getByLabel('Search profiles').fill('#fleet');
      await expect.poll(() => count.textContent()).toBe(`50 of ${COUNT} profiles`);
      await popup.getByRole('button', { name: `Select all ${COUNT} matching` }).click();
      await popup.getByText(`${COUNT} selected`).waitFor();
    };

    const began = Date.now();
    await selectFleet();
    await popup.getByRole('button', { name: 'Proxy…' }).click();
    await popup.getByLabel('Or paste one proxy per profile').fill(PROXIES.join('\n'));
    expect(await axeViolations(popup)).toEqual([]);
    await popup.getByRole('button', { name: `Set the proxy of ${COUNT}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Set the proxy of ${COUNT} of ${COUNT}.` })
      .waitFor();
    const took = Date.now() - began;
    expect(took, `selected and assigned in ${took} ms`).toBeLessThan(10_000);
    const { data: proxies } = await api.get<{ data: { id: string }[] }>('/v1/proxies?limit=100');
    expect(proxies).toHaveLength(100);
    // One to one, in the list's order, newest first: the newest profile has the first line's proxy.
    const newest = (await api.get<{ data: Profile[] }>('/v1/profiles?tag=fleet&limit=2')).data;
    expect(newest.map(({ proxy }) => proxy)).toEqual([
      'http://user0@127.0.0.1:20000',
      'http://user1@127.0.0.1:20001',
    ]);

    await selectFleet();
    await popup.getByRole('button', { name: 'Tags…' }).click();
    await popup.getByLabel('Tags').fill('wave-1');
    await popup.getByRole('button', { name: `Add to ${COUNT}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Tagged ${COUNT} of ${COUNT}.` })
      .waitFor();
    const tagged = await api.get<{ total: number }>('/v1/profiles?tag=wave-1&total=true&limit=1');
    expect(tagged.total).toBe(COUNT);

    await selectFleet();
    await popup.getByRole('button', { name: 'Run script…' }).click();
    await popup.getByLabel('Saved script').selectOption('Touch');
    expect(await axeViolations(popup)).toEqual([]);
    await popup.getByRole('button', { name: `Run on ${COUNT}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Queued ${COUNT} of ${COUNT} as one batch` })
      .waitFor({ timeout: 60_000 });

    // The thousand wait their turn for a browser (three at a time on this machine) rather than fail: none has
    // failed for want of room, and the batch, cancelled, ends with every run accounted for.
    const { data: latest } = await api.get<{ data: AutomationRun[] }>('/v1/automation/status?limit=1');
    const batchId = latest[0]?.batch_id as string;
    const queued = await api.get<Batch>(`/v1/automation/batches/${batchId}`);
    expect(queued).toMatchObject({ total: COUNT, failed: 0, finished: false });
    expect(queued.queued + queued.running + queued.succeeded).toBe(COUNT);
    const cancel = await api.send('POST', `/v1/automation/batches/${batchId}/cancel`, {
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: '{}',
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);
    const ended = async () => (await api.get<Batch>(`/v1/automation/batches/${batchId}`)).finished;
    await expect.poll(ended, { timeout: 120_000 }).toBe(true);
    const cancelled = await api.get<Batch>(`/v1/automation/batches/${batchId}`);
    expect(cancelled.succeeded + cancelled.failed + cancelled.cancelled).toBe(COUNT);
    expect(cancelled.cancelled).toBeGreaterThan(0);
  }, 600_000);

  it('runs a script on sixty profiles as one batch, three browsers at a time, to 60 of 60 succeeded with no retry by hand', async () => {
    const popup = await controller.extension.openPopup('#/automation');
    await saveScript(popup, 'Count links', {
      steps: [{ action: 'evaluate', expression: 'document.links.length' }],
    });
    await goTo(popup, 'Profiles');
    await popup.getByLabel('Search profiles').fill('#sixty');
    await expect
      .poll(() =>
        popup
          .getByRole('status')
          .filter({ hasText: /profiles?$/ })
          .textContent(),
      )
      .toBe(`50 of ${SIXTY} profiles`);
    await popup.getByRole('button', { name: `Select all ${SIXTY} matching` }).click();
    await popup.getByRole('button', { name: 'Run script…' }).click();
    await popup.getByLabel('Saved script').selectOption('Count links');
    const began = Date.now();
    await popup.getByRole('button', { name: `Run on ${SIXTY}` }).click();
    await popup
      .getByRole('status')
      .filter({ hasText: `Queued ${SIXTY} of ${SIXTY} as one batch` })
      .waitFor();
    await goTo(popup, 'Automation');
    const card = popup.getByRole('article', { name: 'Batch: Count links' });
    await expect
      .poll(() => card.getByRole('status').first().textContent(), { timeout: 300_000, interval: 1_000 })
      .toMatch(/^60 of 60 succeeded/);
    console.info(
      `a batch of ${SIXTY} on 3 browsers: ${await card.getByRole('status').first().textContent()} in ${Date.now() - began} ms`,
    );
    // Nothing to retry: Retry stayed off throughout.
    expect(await card.getByRole('button', { name: /^Retry/ }).isDisabled()).toBe(true);
  }, 360_000);
});
