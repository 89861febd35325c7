/**
 * The extension on the service's event stream, in real Chromium with the built extension, on the Free plan:
 * the popup open on Sessions shows a session whose browser was killed from outside as stopped, and the badge
 * and a notification follow, with no request to the sessions list after the kill (the change came as an event,
 * not a poll); a run's steps show in the popup as they happen, with no status request for that run.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Session } from '../../lib/api/schemas/sessions';
import { connectExtension } from '../../scripts/extension-browser';
import { processesWithUserDataDir } from '../support/browser-fixtures';
import { JSON_HEADERS, type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, pick, rowOf, shownUnlessRefused } from './support/popup';
import { serviceReader } from './support/service-api';
import { eventually } from './support/wait';
import { badge, recordNotifications, takeNotifications } from './support/worker';

const PROFILE = 'Killed from outside';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;
let api: ReturnType<typeof serviceReader>;
let popup: Page;

/** The service's request log lines: method, path, status, and when each request began (ms since the epoch). */
function requests(): { method: string; path: string; status: number; began: number; ended: number }[] {
  return service.logs.flatMap((line) => {
    const record = JSON.parse(line) as {
      msg?: string;
      time: string;
      ms: number;
      method: string;
      path: string;
      status: number;
    };
    const ended = Date.parse(record.time);
    return record.msg === 'request' ? [{ ...record, began: ended - record.ms, ended }] : [];
  });
}

beforeAll(async () => {
  [service, extension] = await Promise.all([
    startService().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  // Free: the stream is within every plan's means (one request, two streams at once).
  const key = await service.createKey('free');
  api = serviceReader(service.baseUrl, key);
  await connectExtension(extension.currentWorker(), service.baseUrl, key);
});

afterAll(() => cleanup.run());

describe('the extension on the event stream', () => {
  it('shows a browser killed from outside as stopped in the open popup, and the badge follows', async () => {
    const created = await api.send('POST', '/v1/profiles', {
      body: JSON.stringify({ name: PROFILE }),
      headers: JSON_HEADERS,
    });
    const profile = (await created.json()) as Profile;
    const started = await api.send('POST', '/v1/sessions/start', {
      body: JSON.stringify({ profile_id: profile.id, headless: true }),
      headers: JSON_HEADERS,
    });
    const session = (await started.json()) as Session;

    popup = await extension.openPopup('#/profiles');
    await rowOf(popup, PROFILE).waitFor();
    await goTo(popup, 'Sessions');
    const row = rowOf(popup, PROFILE);
    await row.waitFor();
    const worker = extension.currentWorker();
    await eventually('the badge to count the session', async () =>
      (await badge(worker)).text === '1' ? true : undefined,
    );
    await eventually('the worker to hold the event stream', async () =>
      requests().some((request) => request.path === '/v1/events' && request.status === 200)
        ? true
        : undefined,
    );
    await recordNotifications(worker);

    const killedAt = Date.now();
    for (const pid of processesWithUserDataDir(path.join(service.dataDir, 'profiles', profile.id)))
      process.kill(pid, 'SIGKILL');
    await row.waitFor({ state: 'detached' });
    const shownAfterMs = Date.now() - killedAt;
    await eventually('the badge to drop the session', async () =>
      (await badge(worker)).text === '' ? true : undefined,
    );
    console.info(`the popup showed the killed browser's session stopped ${shownAfterMs} ms after the kill`);

    // While the stream stays open: a stream that drops (a loaded machine) is caught up by reading the sessions.
    const streamEnded = Math.min(
      ...requests()
        .filter((request) => request.path === '/v1/events' && request.ended >= killedAt)
        .map((request) => request.ended),
    );
    const polled = requests().filter(
      (request) =>
        request.path.startsWith('/v1/sessions') && request.began >= killedAt && request.began < streamEnded,
    );
    expect(polled).toEqual([]);
    expect(await api.get<Session>(`/v1/sessions/${session.id}`)).toMatchObject({
      status: 'stopped',
      stop_reason: 'browser_exited',
    });
    const [notification] = await eventually('the exit notification', async () => {
      const shown = await takeNotifications(worker);
      return shown.length > 0 ? shown : undefined;
    });
    expect(notification?.title).toContain(PROFILE);
  });

  it('shows a run’s steps in the popup as they happen, without asking the service about the run', async () => {
    const automation = await extension.openPopup('#/automation');
    const script = {
      steps: [
        { action: 'evaluate', expression: '1 + 1', name: 'two' },
        { action: 'wait_for', ms: 2000 },
        { action: 'evaluate', expression: '"done"', name: 'said' },
      ],
    };
    await automation.getByLabel('Script (JSON steps)').fill(JSON.stringify(script));
    await automation.getByLabel('Script name').fill('Step by step');
    await pick(automation, PROFILE);
    await automation.getByRole('button', { name: 'Run', exact: true }).click();
    const row = rowOf(automation, 'Step by step').first();
    await shownUnlessRefused(automation, row);
    // The wait, seen running while it runs, then each step as it ended.
    await row.locator('li.running', { hasText: 'wait_for' }).waitFor();
    await row.locator('li.succeeded', { hasText: 'evaluate' }).first().waitFor();
    await eventually('the run to succeed in the popup', async () =>
      (await row.locator('summary').textContent())?.startsWith('Step by step succeeded') ? true : undefined,
    );
    expect(await row.locator('ol.steps > li.succeeded').count()).toBe(3);
    const { data } = await api.get<{ data: { id: string }[] }>('/v1/automation/status?limit=1');
    const runId = data[0]?.id as string;
    expect(requests().filter((request) => request.path.includes(runId))).toEqual([]);
  });
});
