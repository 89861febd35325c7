/** The popup's Watch opens a running session's live view in a tab, which shows the session's page. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../lib/api/client';
import { type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, rowOf } from './support/popup';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;

beforeAll(async () => {
  [service, extension] = await Promise.all([
    startService().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
});

afterAll(() => cleanup.run());

it('opens the live view of a running session from the Sessions view', async () => {
  const key = await service.createKey('enterprise');
  const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  const profile = await api.createProfile({ name: 'Watched' });
  const session = await api.startSession({ profile_id: profile.id, headless: true });
  cleanup.add(session, () => api.stopSession({ session_id: session.id }));

  const popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(service.baseUrl);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  await popup.getByRole('status').filter({ hasText: 'Connected to' }).waitFor();
  await goTo(popup, 'Sessions');
  const opened = extension.context.waitForEvent('page');
  await rowOf(popup, 'Watched').getByRole('button', { name: 'Watch Watched' }).click();
  const view = await opened;
  await view.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  expect(view.url()).toMatch(new RegExp(`^${service.baseUrl}/live/${session.id}/c\\.`));
  expect(await view.locator('#mode').textContent()).toBe('Control');
});
