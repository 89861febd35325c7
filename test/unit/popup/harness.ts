/**
 * The popup's and options page's surroundings for component tests: fakeBrowser with the real English messages,
 * permissions and tabs stubbed. The worker is a mock connector each test scripts (`connector-mock.ts`).
 */
import { fireEvent } from '@testing-library/preact';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import type { EndpointName } from '../../../lib/api/endpoints';
import { mayCall, PERMISSIONS } from '../../../lib/api/permissions';
import type { Role } from '../../../lib/api/roles';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import type { Profile } from '../../../lib/api/schemas/profiles';
import type { ProxyConfig } from '../../../lib/api/schemas/proxies';
import type { Session } from '../../../lib/api/schemas/sessions';
import type { Reply, WorkerError } from '../../../lib/messaging/protocol';
import type { Cached, PlanLimits, WatchedRun } from '../../../lib/storage';

type CachedItem<T> = { setValue(value: Cached<T> | null): Promise<void> };

import { getMessage } from '../background/browser-stubs';

export const AT = '2025-01-06T09:00:00.000Z';

export function installPopupBrowser() {
  fakeBrowser.reset();
  const stubs = {
    request: vi.fn(async (_: { origins: string[] }) => true),
    openOptionsPage: vi.fn(async () => {}),
    createTab: vi.fn(async (_: { url: string }) => ({})),
  };
  Object.assign(fakeBrowser.i18n, { getMessage });
  Object.assign(fakeBrowser.runtime, {
    openOptionsPage: stubs.openOptionsPage,
    getManifest: () => ({ version: '0.1.0' }),
  });
  Object.assign(fakeBrowser.tabs, { create: stubs.createTab });
  Object.assign(fakeBrowser, {
    permissions: { request: stubs.request, contains: vi.fn(async () => true) },
    commands: {},
  });
  return stubs;
}

/** A reply the test gives when it chooses; the popup waits for it meanwhile. */
export function later<T = undefined>() {
  let give: (reply: Reply<T>) => void = () => {};
  const reply = new Promise<Reply<T>>((resolve) => {
    give = resolve;
  });
  return { reply, give };
}

export const ok = <T>(value: T): Reply<T> => ({ ok: true, value });

/** A list as the service gives it. */
export const list = <T>(...data: T[]) => ({ data, next_cursor: null });

/** Answers a refresh as the worker does: it saves the list in its cache, then replies. */
export function refreshed<T>(item: CachedItem<T>, ...data: T[]) {
  return async (): Promise<Reply<undefined>> => {
    await item.setValue({ data, savedAt: Date.now() });
    return ok(undefined);
  };
}

export function fail(code: string, message: string, more: Partial<WorkerError> = {}): Reply<never> {
  return { ok: false, error: { code, message, status: 0, retryAfter: null, fieldErrors: [], ...more } };
}

export function profile(id: string, name: string, more: Partial<Profile> = {}): Profile {
  return {
    id,
    name,
    proxy: null,
    proxy_id: null,
    tags: [],
    notes: '',
    fingerprint: {},
    identity: null,
    status: 'idle',
    session_id: null,
    created_at: AT,
    updated_at: AT,
    last_used_at: null,
    ...more,
  };
}

export function proxy(id: string, name: string, more: Partial<ProxyConfig> = {}): ProxyConfig {
  return {
    id,
    name,
    scheme: 'http',
    host: '10.0.0.1',
    port: 3128,
    username: null,
    has_password: false,
    url: 'http://10.0.0.1:3128',
    used_by: 0,
    last_check: null,
    created_at: AT,
    updated_at: AT,
    ...more,
  };
}

export function session(id: string, profileId: string, more: Partial<Session> = {}): Session {
  return {
    id,
    profile_id: profileId,
    status: 'running',
    cdp_url: `ws://127.0.0.1:9222/devtools/browser/${id}`,
    headless: true,
    started_at: AT,
    stopped_at: null,
    stop_reason: null,
    error: null,
    ...more,
  };
}

export function watched(
  run: Partial<AutomationRun> & { id: string },
  more: Partial<WatchedRun> = {},
): WatchedRun {
  return {
    run: {
      profile_id: 'prf_1',
      session_id: null,
      name: null,
      status: 'running',
      steps: [],
      output: {},
      error: null,
      version: 1,
      created_at: AT,
      started_at: AT,
      finished_at: null,
      ...run,
    },
    phase: 'watching',
    since: Date.parse(AT),
    endedAt: null,
    notified: false,
    seen: false,
    message: null,
    ...more,
  };
}

/** What a person types into a field (or picks in a select), rendered before the next action. */
export function typeInto(field: HTMLElement, value: string): void {
  fireEvent.input(field, { target: { value } });
}

/** What the service says of a key of `role`: the role, and the operations it may not call. */
export function asRole(role: Role): Pick<PlanLimits, 'role' | 'mayNot'> {
  const names = Object.keys(PERMISSIONS) as EndpointName[];
  return { role, mayNot: names.filter((name) => !mayCall(role, name)) };
}
