/**
 * Bulk work on a thousand profiles in the real popup against the real service: all matching a tag selected at
 * once, a pasted list of a thousand proxies assigned one to one, tags added, a script run on them as one batch
 * whose summary, failed runs, retry and export the Automation view shows. Two sessions at a time: the batch's
 * runs beyond them fail, which is what retry is for.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun, Batch } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';
import { goTo, saveScript } from './support/popup';

const controller = controllerForFile({ env: async () => ({ ENTERPRISE_MAX_SESSIONS: '2' }) });
const COUNT = 1000;
/** One proxy per profile, each a login of its own on a loopback port (the operator allows loopback here). */
const PROXIES = Array.from(
  { length: COUNT },
  (_, index) => `user${index}:pw${index}@127.0.0.1:${20_000 + index}`,
);

describe('bulk work on a thousand profiles', () => {
  beforeAll(async () => {
    const { api } = controller;
    for (let start = 0; start < COUNT; start += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, COUNT - start) }, (_, n) =>
          createProfile(api, { name: `Fleet ${String(start + n + 1).padStart(4, '0')}`, tags: ['fleet'] }),
        ),
      );
    }
    await createProfile(controller.api, { name: 'Not in the fleet' });
  }, 300_000);

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

    await goTo(popup, 'Automation');
    const card = popup.getByRole('article', { name: 'Batch: Touch' });
    const summary = card.getByRole('status');
    await expect.poll(() => summary.textContent(), { timeout: 120_000 }).not.toMatch(/not finished yet|^$/);
    const first = (await summary.textContent()) ?? '';
    const [, succeeded = '0', failed = '0'] = /^(\d+) of 1000 succeeded, (\d+) failed$/.exec(first) ?? [];
    expect(Number(succeeded) + Number(failed), first).toBe(COUNT);
    expect(Number(failed)).toBeGreaterThan(0);

    await card.getByRole('checkbox', { name: 'Show the failed only' }).check();
    await card.locator('li.run').first().waitFor();
    expect(await axeViolations(popup)).toEqual([]);

    const retriedAt = new Date().toISOString();
    await card.getByRole('button', { name: `Retry ${failed} failed` }).click();
    // The retried runs are queued in the same batch (they may fail again at once: two sessions at a time), then end.
    const newestRunAt = async () =>
      (await api.get<{ data: AutomationRun[] }>('/v1/automation/status?limit=1')).data[0]?.created_at ?? '';
    await expect.poll(newestRunAt, { timeout: 60_000 }).toSatisfy((at: string) => at > retriedAt);
    await expect.poll(() => summary.textContent(), { timeout: 120_000 }).not.toMatch(/not finished yet/);
    const { data: latest } = await api.get<{ data: AutomationRun[] }>('/v1/automation/status?limit=1');
    const batchId = latest[0]?.batch_id as string;
    const batch = await api.get<Batch>(`/v1/automation/batches/${batchId}`);
    // Every failed profile ran again, in the same batch: its latest run is one queued by the retry.
    expect(batch.succeeded).toBeGreaterThanOrEqual(Number(succeeded));
    expect(batch.succeeded + batch.failed).toBe(COUNT);
    expect(latest[0]?.batch_id).toBe(batchId);

    const [download] = await Promise.all([
      popup.waitForEvent('download'),
      card.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await readFile((await download.path()) as string, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('run_id,profile_id,profile_name,status,error,finished_at');
    expect(lines).toHaveLength(COUNT + 1);
    const [json] = await Promise.all([
      popup.waitForEvent('download'),
      card.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(JSON.parse(await readFile((await json.path()) as string, 'utf8'))).toHaveLength(COUNT);
  }, 600_000);
});
