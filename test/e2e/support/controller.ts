/**
 * What each of the controller's e2e files starts with: its own service, its own Chromium with the built
 * extension, an enterprise account of its own, and the popup connected to it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Profile } from '../../../lib/api/schemas/profiles';
import { type ServiceHandle, startService } from '../../support/harness';
import { cleanupStack } from './cleanup';
import { type Extension, openExtension } from './extension';
import { shownUnlessRefused } from './popup';
import { serviceReader } from './service-api';

/** The account's name: the popup says it once connected. */
export const CONTROLLER_ACCOUNT = 'E2E controller';

type Cleanup = ReturnType<typeof cleanupStack>;

export interface Controller {
  /** What the file's own servers register, to be stopped after its tests with the service and browser. */
  cleanup: Cleanup;
  service: ServiceHandle;
  extension: Extension;
  /** The service as the account sees it, to make data and to check what the popup did. */
  api: ReturnType<typeof serviceReader>;
  /** The popup that connected, still open on the view Connect leads to. */
  popup: Page;
}

interface ControllerOptions {
  /** More of the service's environment, from servers the file starts first (registered with `cleanup`). */
  env?: (cleanup: Cleanup) => Promise<Record<string, string>>;
  /** Runs on the set-up view with the service's address typed, before the key is. */
  onSetupView?: (popup: Page) => Promise<void>;
}

/**
 * The file's controller, filled in by a `beforeAll` this registers (before the file's own) and stopped after
 * its tests: read its fields inside hooks and tests.
 */
export function controllerForFile(options: ControllerOptions = {}): Controller {
  const cleanup = cleanupStack();
  const controller = { cleanup } as Controller;
  beforeAll(async () => {
    Object.assign(controller, await startController(cleanup, options));
  });
  afterAll(() => cleanup.run());
  return controller;
}

/**
 * Starts the service (its pages and proxies are on loopback, which sessions reach only when the operator
 * allows it) and the browser at once, then connects the popup.
 */
async function startController(
  cleanup: Cleanup,
  options: ControllerOptions,
): Promise<Omit<Controller, 'cleanup'>> {
  const env = (await options.env?.(cleanup)) ?? {};
  const [service, extension] = await Promise.all([
    startService({ env: { EGRESS_ALLOW: 'loopback', ...env } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  const key = await service.createKey('enterprise', CONTROLLER_ACCOUNT);
  const popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(service.baseUrl);
  await options.onSetupView?.(popup);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  await shownUnlessRefused(popup, popup.getByRole('status').filter({ hasText: 'Connected to' }));
  return { service, extension, api: serviceReader(service.baseUrl, key), popup };
}

/** Makes a profile through the service (a refusal fails the test); gives it. */
export function createProfile(api: Controller['api'], body: object): Promise<Profile> {
  return api.post<Profile>('/v1/profiles', body, 201);
}

/** The account's profiles named `prefix`…, by the service. */
export async function profilesNamed(api: Controller['api'], prefix: string): Promise<Profile[]> {
  const { data } = await api.get<{ data: Profile[] }>(
    `/v1/profiles?q=${encodeURIComponent(prefix)}&limit=100`,
  );
  return data;
}
