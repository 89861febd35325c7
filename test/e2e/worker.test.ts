/**
 * The extension's worker in real Chromium against the real service: its keyboard commands, each handler run
 * as the browser runs it on a key press, and a worker that Chrome ends while it follows a run.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Session } from '../../lib/api/schemas/sessions';
import { connectExtension } from '../../scripts/extension-browser';
import { JSON_HEADERS, type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { pick, rowOf } from './support/popup';
import { serviceReader } from './support/service-api';
import { SITE_TITLE, startSite } from './support/site';
import { eventually } from './support/wait';
import {
  badge,
  clearNotification,
  dispatchCommand,
  endWorker,
  notificationIds,
  recordNotifications,
  registeredCommands,
  type ShownNotification,
  suggestedKeys,
  takeNotifications,
  workerIsRunning,
} from './support/worker';

const PROFILE = 'Night shift';
const SCRIPT = 'Slow read';
/** How long the script waits on the page: long enough to end the worker in the middle. */
const SCRIPT_WAIT_MS = 5_000;

const cleanup = cleanupStack();
let service: ServiceHandle;
let site: Awaited<ReturnType<typeof startSite>>;
let extension: Extension;
let api: ReturnType<typeof serviceReader>;
let profile: Profile;
let key: string;

beforeAll(async () => {
  [service, site, extension] = await Promise.all([
    // Its pages and proxies are served on loopback, which sessions reach only when the operator allows it.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    startSite().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  key = await service.createKey('enterprise');
  api = serviceReader(service.baseUrl, key);
  const created = await api.send('POST', '/v1/profiles', {
    body: JSON.stringify({ name: PROFILE }),
    headers: JSON_HEADERS,
  });
  profile = (await created.json()) as Profile;
});

afterAll(() => cleanup.run());

/** Notifications recorded in the worker and not yet looked at by a test, oldest first. */
const shown: ShownNotification[] = [];

/** The next notification the worker shows (it must be recording them), once it shows. */
function nextNotification(what: string): Promise<ShownNotification> {
  return eventually(what, async () => {
    shown.push(...(await takeNotifications(extension.currentWorker())));
    return shown.shift();
  });
}

async function runningSessions(): Promise<Session[]> {
  return (await api.get<{ data: Session[] }>('/v1/sessions?status=running')).data;
}

/** Waits on the service (long-polling) until the run has ended, and gives it as it ended. */
async function ended(runId: string): Promise<AutomationRun> {
  const status = `/v1/automation/status?run_id=${runId}`;
  let run = await api.get<AutomationRun>(status);
  while (!['succeeded', 'failed', 'cancelled'].includes(run.status))
    run = await api.get<AutomationRun>(`${status}&wait=25&after_version=${run.version}`);
  return run;
}

async function startSlowRunFromPopup(): Promise<{ popup: Page; runId: string }> {
  const popup = await extension.openPopup('#/automation');
  const script = {
    steps: [
      { action: 'goto', url: `${site.origin}/slow` },
      { action: 'wait_for', ms: SCRIPT_WAIT_MS },
      { action: 'evaluate', expression: 'document.title', name: 'title' },
    ],
  };
  await popup.getByLabel('Script (JSON steps)').fill(JSON.stringify(script));
  await popup.getByLabel('Script name').fill(SCRIPT);
  // Automation picks no profile by itself: the person ticks the one to run on.
  await pick(popup, PROFILE);
  await popup.getByRole('button', { name: 'Run', exact: true }).click();
  // Newest first: a run started before, under the same name, is below.
  const summary = rowOf(popup, SCRIPT).first().locator('summary');
  await eventually('the popup to show the run running', async () =>
    (await summary.textContent())?.startsWith(`${SCRIPT} running`) ? true : undefined,
  );
  const { data } = await api.get<{ data: AutomationRun[] }>('/v1/automation/status?status=active');
  const [run] = data;
  if (!run) throw new Error('the service runs nothing');
  return { popup, runId: run.id };
}

describe('keyboard commands', () => {
  it('are the manifest’s, described in the person’s language', async () => {
    const commands = await registeredCommands(extension.currentWorker());
    expect(commands.map(({ name, description }) => ({ name, description }))).toEqual(
      expect.arrayContaining([
        { name: 'start-last-profile', description: 'Start a session for the last used profile' },
        { name: 'stop-all-sessions', description: 'Stop all sessions' },
        { name: 'run-last-script', description: 'Run the last script again' },
      ]),
    );
    expect(commands.map(({ name }) => name).sort()).toEqual([
      '_execute_action',
      'run-last-script',
      'start-last-profile',
      'stop-all-sessions',
    ]);
  });

  it('each get the key the manifest suggests', async () => {
    const worker = extension.currentWorker();
    const assigned = (await registeredCommands(worker)).map(({ name, shortcut }) => `${name}: ${shortcut}`);
    expect(assigned.sort()).toEqual((await suggestedKeys(worker)).sort());
  });

  it('say what they did when there is nothing to act on', async () => {
    const worker = extension.currentWorker();
    await recordNotifications(worker);
    await dispatchCommand(worker, 'stop-all-sessions');
    expect(await nextNotification('the shortcut’s answer without a key')).toEqual({
      id: '#/settings',
      title: 'Profile Pilot',
      message: 'No API key is set. Open the options to enter one.',
    });

    await connectExtension(worker, service.baseUrl, key);
    const answers = {
      'start-last-profile': 'No profile has been used yet. Start a session from the popup first.',
      'run-last-script': 'No script has been run yet. Run one from the popup first.',
      'stop-all-sessions': 'No sessions are running.',
    };
    for (const [command, message] of Object.entries(answers)) {
      await dispatchCommand(worker, command);
      expect(await nextNotification(`the answer to ${command}`)).toEqual({
        id: '#/',
        title: 'Profile Pilot',
        message,
      });
    }
  });
});

// In order: the second test's shortcuts act on the profile and the script the first one ran from the popup.
describe('after a script run from the popup', () => {
  beforeAll(() => connectExtension(extension.currentWorker(), service.baseUrl, key));

  it('a worker ended while it follows the run wakes with its alarm and announces the run once', async () => {
    const { context } = extension;
    const { popup, runId } = await startSlowRunFromPopup();
    const route = `#/runs/${runId}`;
    expect(await notificationIds(extension.currentWorker())).not.toContain(route);
    // The person closes the popup; Chrome ends the idle worker while its request about the run is under way.
    await popup.close();
    await endWorker(context);
    const endedAt = Date.now();

    expect(await ended(runId)).toMatchObject({ status: 'succeeded', output: { title: SITE_TITLE } });
    expect(await workerIsRunning(context)).toBe(false);
    // Nothing else wakes it: the watcher's alarm does, and the worker learns how the run ended.
    await eventually(
      'the woken worker to announce the run',
      async () =>
        (await workerIsRunning(context)) && (await notificationIds(extension.currentWorker())).includes(route)
          ? true
          : undefined,
      45_000,
    );
    console.info(
      `e2e: the run was announced ${((Date.now() - endedAt) / 1000).toFixed(1)} s after the worker ended`,
    );

    // Once: it does not come back when the worker wakes again, nor when Chrome ends and restarts it again.
    const worker = extension.currentWorker();
    await clearNotification(worker, route);
    await recordNotifications(worker);
    const again = await extension.openPopup('#/automation');
    await rowOf(again, SCRIPT).getByText('succeeded', { exact: true }).first().waitFor();
    await again.close();
    await endWorker(context);
    const woken = await extension.openPopup('#/automation');
    await eventually('the worker to start again', async () =>
      (await workerIsRunning(context)) ? true : undefined,
    );
    await rowOf(woken, SCRIPT).getByText('succeeded', { exact: true }).first().waitFor();
    await woken.close();
    // The window has passed once the woken worker announces a later run: announcing it goes over every stored
    // run that ended, the first one included.
    const later = await startSlowRunFromPopup();
    await later.popup.close();
    await eventually(
      'the woken worker to announce a later run',
      async () =>
        (await notificationIds(extension.currentWorker())).includes(`#/runs/${later.runId}`)
          ? true
          : undefined,
      45_000,
    );
    expect(await notificationIds(extension.currentWorker())).not.toContain(route);
  });

  it('the shortcuts start the last profile, run the last script on it, and stop all sessions', async () => {
    const worker = extension.currentWorker();
    await recordNotifications(worker);
    shown.length = 0;
    const { data: before } = await api.get<{ data: AutomationRun[] }>('/v1/automation/status');

    await dispatchCommand(worker, 'start-last-profile');
    expect(await nextNotification('the session start')).toEqual({
      id: `#/profiles/${profile.id}`,
      title: 'Profile Pilot',
      message: `Started a session for ${PROFILE}.`,
    });
    const [session] = await runningSessions();
    expect(session?.profile_id).toBe(profile.id);
    await eventually('the badge to count the session', async () =>
      (await badge(worker)).text === '1' ? true : undefined,
    );

    await dispatchCommand(worker, 'run-last-script');
    const started = await nextNotification('the run start');
    expect(started).toMatchObject({
      id: expect.stringMatching(/^#\/runs\/run_/),
      message: `Running ${SCRIPT}…`,
    });
    const runId = decodeURIComponent(started.id.slice('#/runs/'.length));
    expect(before.map(({ id }) => id)).not.toContain(runId);
    expect(await ended(runId)).toMatchObject({ status: 'succeeded', session_id: session?.id });
    const end = await nextNotification('the run’s end');
    expect(end).toMatchObject({ id: started.id, title: `${SCRIPT} succeeded` });
    expect(end.message).toMatch(new RegExp(`^Took \\d+ s\\.\ntitle: ${SITE_TITLE}$`));

    // Stop all asks first; a second press within 5 s stops them.
    await dispatchCommand(worker, 'stop-all-sessions');
    expect(await nextNotification('the question')).toEqual({
      id: '#/',
      title: 'Profile Pilot',
      message: 'Stop all running sessions (1)? Press the shortcut again within 5 seconds to stop them.',
    });
    await dispatchCommand(worker, 'stop-all-sessions');
    expect(await nextNotification('the stop')).toEqual({
      id: '#/',
      title: 'Profile Pilot',
      message: 'Sessions stopped: 1.',
    });
    expect(await runningSessions()).toEqual([]);
    await eventually('the badge to clear', async () =>
      (await badge(worker)).text === '' ? true : undefined,
    );
  });
});
