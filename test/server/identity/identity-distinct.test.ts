import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({
  plan: 'enterprise',
  env: { EGRESS_ALLOW: 'loopback' },
  checkPages: 'localhost',
});

interface Visitor {
  visitorId: string;
  components: Record<string, string>;
}

/** FingerprintJS's visitor in a fresh session of the profile, which is stopped again. */
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

describe('profiles made with defaults', () => {
  it('are 20 different devices to FingerprintJS, each the same device after a stop and a start', async () => {
    const profiles = [];
    for (let index = 0; index < 20; index += 1)
      profiles.push(await suite.api.createProfile({ name: `Default ${index}` }));
    const first: Visitor[] = [];
    for (const profile of profiles) first.push(await visitorOf(profile.id));
    expect(new Set(first.map((visitor) => visitor.visitorId)).size).toBe(20);
    // Each pair differs in more than one surface. GPU and memory are the host's (a page reads the host's limits and
    // heap whatever is claimed), so two profiles of one screen and core count differ in their seeded read-backs.
    for (let a = 0; a < first.length; a += 1)
      for (let b = a + 1; b < first.length; b += 1) {
        const [one, other] = [first[a] as Visitor, first[b] as Visitor];
        const differing = Object.keys(one.components).filter(
          (name) => one.components[name] !== other.components[name],
        );
        expect(differing.length, `${a} and ${b} differ in ${differing.join(', ')}`).toBeGreaterThanOrEqual(2);
      }
    for (const [index, profile] of profiles.entries())
      expect((await visitorOf(profile.id)).visitorId, profile.name).toBe(first[index]?.visitorId);
  }, 240_000);
});
