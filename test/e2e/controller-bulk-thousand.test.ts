/**
 * Bulk work on a thousand profiles in the real popup against the real service: all matching a tag selected at
 * once, a pasted list of a thousand proxies assigned one to one, and tags added. (A script run on the thousand as one
 * batch is left out: since runs wait in the queue, queueing a thousand takes the popup's request longer than it
 * waits, and the popup never says "Queued 1000 of 1000"; batches are tested in test/server/automation/.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../lib/api/schemas/profiles';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';

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

  it('assigns a thousand pasted proxies one to one and tags them', async () => {
    const { api, extension } = controller;
    const popup = await extension.openPopup('#/profiles');

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
  }, 600_000);
});
