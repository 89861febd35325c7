import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../../lib/api/schemas/identity';
import { generateIdentity } from '../../../server/identity/generate';
import { seededRandom } from '../../support/seeded-random';
import { serviceSuite } from '../../support/service-suite';
import { testSeed } from '../../support/test-seed';

const suite = serviceSuite({
  plan: 'enterprise',
  env: { EGRESS_ALLOW: 'loopback' },
  checkPages: 'localhost',
});

interface Visitor {
  visitorId: string;
  components: Record<string, string>;
}

/** Profiles of these identities, each FingerprintJS's visitor in a fresh session of it, which is stopped again. */
async function visitorsOf(identities: Identity[]): Promise<{ ids: string[]; visitors: Visitor[] }> {
  const ids: string[] = [];
  for (const [index, identity] of identities.entries())
    ids.push((await suite.api.createProfile({ name: `Generated ${index}`, identity })).id);
  const visitors: Visitor[] = [];
  for (const id of ids) visitors.push(await visitorOf(id));
  return { ids, visitors };
}

async function visitorOf(profileId: string): Promise<Visitor> {
  const session = await suite.api.startSession({ profile_id: profileId, headless: true });
  const browser = await chromium.connectOverCDP(session.cdp_url as string);
  try {
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.goto(`${suite.pages.origin}/fp`);
    return (await page.evaluate('window.visitor')) as Visitor;
  } finally {
    await browser.close();
    await suite.api.stopSession({ session_id: session.id });
  }
}

/** Each pair of visitors FingerprintJS takes for one, with the components that differ all the same (none, if any). */
function sameVisitors(visitors: Visitor[]): string[] {
  const same: string[] = [];
  for (const [a, one] of visitors.entries())
    for (const [b, other] of visitors.entries())
      if (a < b && one.visitorId === other.visitorId) {
        const differing = Object.keys(one.components).filter(
          (name) => one.components[name] !== other.components[name],
        );
        same.push(`${a} and ${b} (differing in: ${differing.join(', ') || 'nothing'})`);
      }
  return same;
}

// Two draws may share screen, cores, memory and GPU, as real machines do; the profile's noise seed still tells them
// apart, so the promise is distinct visitor ids, not a number of differing components.
describe('generated identities', () => {
  it('are 20 different devices to FingerprintJS, five of them the same device after a stop and a start', async () => {
    const random = seededRandom(testSeed());
    const identities = Array.from({ length: 20 }, () => generateIdentity(undefined, random));
    const { ids, visitors } = await visitorsOf(identities);
    expect(sameVisitors(visitors)).toEqual([]);
    // Five restarts say as much as twenty: the identity and its seed come from the profile, not from the draw.
    for (const [index, id] of ids.slice(0, 5).entries())
      expect((await visitorOf(id)).visitorId, `profile ${index} after a restart`).toBe(
        visitors[index]?.visitorId,
      );
  }, 600_000);

  it('are one device to FingerprintJS when the generator repeats a draw, which the check above reports', async () => {
    const seed = testSeed();
    const repeated = [
      generateIdentity(undefined, seededRandom(seed)),
      generateIdentity(undefined, seededRandom(seed)),
    ];
    expect(repeated[1]).toEqual(repeated[0]);
    const { visitors } = await visitorsOf([...repeated, generateIdentity(undefined, seededRandom(seed + 1))]);
    expect(sameVisitors(visitors)).toEqual([expect.stringMatching(/^0 and 1 \(differing in: nothing\)$/)]);
  }, 180_000);
});
