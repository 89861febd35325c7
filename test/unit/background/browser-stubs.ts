/**
 * WXT's fakeBrowser, completed with what it lacks (action.openPopup, commands, permissions, i18n.getMessage,
 * runtime.getManifest/openOptionsPage), and the service model behind `fetch`, on vitest's fake clock.
 */
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import messages from '../../../public/_locales/en/messages.json';
import { FakeService, type ServiceOptions } from '../../support/fake-service';

interface Message {
  message: string;
  placeholders?: Record<string, { content: string }>;
}

/** `i18n.getMessage` over the real messages.json, with Chrome's placeholder rules; '' for an unknown name. */
export function getMessage(name: string, substitutions: string | string[] = []): string {
  const entry = (messages as Record<string, Message>)[name];
  if (!entry) return '';
  const values = Array.isArray(substitutions) ? substitutions : [substitutions];
  return entry.message
    .replace(/\$(\w+)\$/g, (_, key: string) => entry.placeholders?.[key.toLowerCase()]?.content ?? '')
    .replace(/\$(\d)/g, (_, index: string) => values[Number(index) - 1] ?? '');
}

/** An event like the browser's, whose listeners a test can fire. */
function event<Args extends unknown[]>() {
  const listeners: ((...args: Args) => unknown)[] = [];
  return {
    addListener: (listener: (...args: Args) => unknown) => listeners.push(listener),
    removeListener: (listener: (...args: Args) => unknown) =>
      listeners.splice(listeners.indexOf(listener), 1),
    hasListener: (listener: (...args: Args) => unknown) => listeners.includes(listener),
    trigger: (...args: Args) => Promise.all(listeners.map((listener) => listener(...args))),
  };
}

export function installBrowser() {
  fakeBrowser.reset();
  const stubs = {
    openPopup: vi.fn(async () => {}),
    openOptionsPage: vi.fn(async () => {}),
    requestPermission: vi.fn(async (_: { origins: string[] }) => true),
    containsPermission: vi.fn(async (_: { origins: string[] }) => true),
    removePermission: vi.fn(async (_: { origins: string[] }) => true),
    onCommand: event<[command: string]>(),
    onConnect: event<[port: { name: string; onDisconnect: ReturnType<typeof event> }]>(),
    createMenuItem: vi.fn((_: { id: string; title: string; contexts: string[] }) => {}),
    onMenuClicked: event<[info: { menuItemId: string | number }]>(),
  };
  Object.assign(fakeBrowser.i18n, { getMessage });
  Object.assign(fakeBrowser.action, { openPopup: stubs.openPopup });
  Object.assign(fakeBrowser.runtime, {
    onConnect: stubs.onConnect,
    openOptionsPage: stubs.openOptionsPage,
    getManifest: () => ({
      icons: { 16: 'icon/16.png', 128: 'icon/128.png' },
      host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    }),
  });
  Object.assign(fakeBrowser, {
    commands: { onCommand: stubs.onCommand },
    contextMenus: { create: stubs.createMenuItem, onClicked: stubs.onMenuClicked },
    permissions: {
      request: stubs.requestPermission,
      contains: stubs.containsPermission,
      remove: stubs.removePermission,
    },
  });
  return stubs;
}

/** The service model on the fake clock, answering the worker's `fetch`. */
export function installService(options: ServiceOptions = { plan: 'free' }): FakeService {
  const service = new FakeService(
    { now: () => Date.now(), setTimer: (callback, ms) => setTimeout(callback, ms) },
    options,
  );
  vi.stubGlobal('fetch', service.fetch);
  // The model has no event stream: a socket to it never opens, and the worker watches by polling.
  vi.stubGlobal(
    'WebSocket',
    class {
      close() {}
      send() {}
    },
  );
  return service;
}

/** A message as the extension's own popup sends it. */
export const POPUP = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/popup.html') };

/** The requests the worker sent, as `METHOD /path?query`. */
export function sent(service: FakeService): string[] {
  return service.requests.map((request) => `${request.method} ${request.path}`);
}
