import { describe, expect, it } from 'vitest';
import type { CdpMessage, CdpPipe } from '../../../server/browser/cdp-pipe';
import { checkCdpCommand } from '../../../server/browser/cdp-policy';
import { generateIdentity } from '../../../server/identity/generate';
import { identityArguments } from '../../../server/identity/launch-arguments';
import { presentIdentity } from '../../../server/identity/presented';
import {
  attachSteps,
  COOKIES_ONLY_STEPS,
  LAUNCH_STEPS,
  stepSwitches,
  stepsOf,
} from '../../../server/sessions/launch-steps/all-steps';
import { cdpPolicy } from '../../../server/sessions/launch-steps/cdp-policy';
import { cookieCommands } from '../../../server/sessions/launch-steps/cookie-commands';
import { downloads } from '../../../server/sessions/launch-steps/downloads';
import { identity } from '../../../server/sessions/launch-steps/identity';
import { relayCredentials } from '../../../server/sessions/launch-steps/relay-credentials';
import type { AttachingBrowser, LaunchStep } from '../../../server/sessions/launch-steps/step';
import { LOOPBACK_ALLOWED } from '../../support/browser-fixtures';
import { seededRandom } from '../../support/seeded-random';
import { testSeed } from '../../support/test-seed';

/*
 * How the launch steps are joined into what a browser's DevTools clients are held to. The steps themselves are
 * tried on real browsers (launch-browser, relay-credentials, identity tests); here, the order and the joins.
 */

const launch = {
  chromePath: '/unused',
  userDataDir: '/unused',
  headless: true,
  proxy: null,
  fingerprint: {},
  egress: LOOPBACK_ALLOWED,
};
/** Steps that send nothing over the pipe need no browser: these tests' steps never write to it. */
const browser: AttachingBrowser = {
  pipe: {} as CdpPipe,
  launch,
  downloadDir: '/profiles/one/Downloads',
  relayCredentials: { proxyServer: 'http://127.0.0.1:9', username: 'u', password: 'p' },
};
const command = (method: string, params: Record<string, unknown> = {}): CdpMessage => ({
  id: 1,
  method,
  params,
});

describe('launch steps, joined', () => {
  it("puts each step's command change in the list's order, and stops at the first refusal", async () => {
    const seen: string[] = [];
    const tag = (name: string): LaunchStep => ({
      attach: async () => ({
        command: (message) => {
          seen.push(name);
          const refused = message.params?.refuse === name;
          return refused
            ? { allowed: false, reason: `${name} refuses it.` }
            : {
                allowed: true,
                message: {
                  ...message,
                  params: { ...message.params, by: [...((message.params?.by as string[]) ?? []), name] },
                },
              };
        },
      }),
    });
    const rules = await attachSteps(browser, [tag('first'), {}, tag('second'), tag('third')]);

    expect(rules.policy(command('Page.reload'))).toEqual({
      allowed: true,
      message: command('Page.reload', { by: ['first', 'second', 'third'] }),
    });
    seen.length = 0;
    expect(rules.policy(command('Page.reload', { refuse: 'second' }))).toEqual({
      allowed: false,
      reason: 'second refuses it.',
    });
    expect(seen).toEqual(['first', 'second']);
  });

  it("passes what a client is sent through each step's change in order", async () => {
    const append = (text: string): LaunchStep => ({
      attach: async () => ({ outgoing: (message) => `${message}${text}` }),
    });
    const rules = await attachSteps(browser, [append('a'), append('b')]);
    expect(rules.outgoing('>')).toBe('>ab');
    expect((await attachSteps(browser, [])).outgoing('as is')).toBe('as is');
  });

  it('tells every watcher of a new context, and answers once all of them are ready', async () => {
    const heard: string[] = [];
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const watcher = (name: string, ready: Promise<void>): LaunchStep => ({
      attach: async () => ({
        contexts: {
          created: async (id) => {
            heard.push(`${name} created ${id}`);
            await ready;
          },
          disposed: (id) => heard.push(`${name} disposed ${id}`),
        },
      }),
    });
    const rules = await attachSteps(browser, [watcher('quick', Promise.resolve()), watcher('slow', slow)]);
    let answered = false;
    const created = rules.contexts?.created('ctx1').then(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    release();
    await created;
    rules.contexts?.disposed('ctx1');
    expect(heard).toEqual([
      'quick created ctx1',
      'slow created ctx1',
      'quick disposed ctx1',
      'slow disposed ctx1',
    ]);
    expect((await attachSteps(browser, [])).contexts).toBeUndefined();
  });

  it('fails the attach when a step fails', async () => {
    const broken: LaunchStep = {
      attach: async () => {
        throw new Error('the browser closed its pipe');
      },
    };
    await expect(attachSteps(browser, [cdpPolicy, broken])).rejects.toThrow('the browser closed its pipe');
  });

  it("has every session's browser held to the identity's changes, then to the CDP policy, which has the last word", async () => {
    expect(LAUNCH_STEPS.indexOf(identity)).toBeLessThan(LAUNCH_STEPS.indexOf(cdpPolicy));
    expect(LAUNCH_STEPS.at(-1)).toBe(cdpPolicy);
    const rules = await attachSteps(browser, [cdpPolicy]);
    for (const refused of [
      command('Browser.getBrowserCommandLine'),
      command('Page.navigate', { url: 'file:///etc/passwd' }),
    ])
      expect(rules.policy(refused)).toEqual(checkCdpCommand(refused, browser.downloadDir));
    const downloadsAnywhere = command('Page.setDownloadBehavior', { behavior: 'default' });
    expect(rules.policy(downloadsAnywhere)).toEqual(checkCdpCommand(downloadsAnywhere, browser.downloadDir));
  });

  it("gives Chromium the identity's switches only for a launch with an identity", () => {
    const presented = presentIdentity(generateIdentity(undefined, seededRandom(testSeed())), {}, null);
    expect(stepSwitches({ ...launch, identity: presented })).toEqual(
      identityArguments(presented, launch.headless),
    );
    expect(stepSwitches({ ...launch, identity: presented })[0]).toMatch(/^--screen-info=/);
    expect(stepSwitches(launch)).toEqual([]);
  });

  it('keeps a browser for cookies only off the network, its clients to the cookie commands, its identity as a session’s', async () => {
    expect(stepsOf({ ...launch, cookiesOnly: true })).toBe(COOKIES_ONLY_STEPS);
    expect(stepsOf(launch)).toBe(LAUNCH_STEPS);
    // Never told its relay's secret, it has nothing that passes the relay; it has no page to download from.
    expect(COOKIES_ONLY_STEPS).not.toContain(relayCredentials);
    expect(COOKIES_ONLY_STEPS).not.toContain(downloads);
    expect(COOKIES_ONLY_STEPS).toEqual([identity, cookieCommands]);
    const presented = presentIdentity(generateIdentity(undefined, seededRandom(testSeed())), {}, null);
    expect(stepSwitches({ ...launch, identity: presented, cookiesOnly: true })).toEqual(
      stepSwitches({ ...launch, identity: presented }),
    );

    const rules = await attachSteps(browser, [cookieCommands]);
    for (const method of ['Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies'])
      expect(rules.policy(command(method))).toEqual({ allowed: true, message: command(method) });
    for (const method of [
      'Target.createTarget',
      'Target.attachToTarget',
      'Browser.getVersion',
      'Network.enable',
    ])
      expect(rules.policy(command(method, { url: 'about:blank' }))).toEqual({
        allowed: false,
        reason: `${method} is not available: this browser was started for the profile's cookies only.`,
      });
  });
});
