/**
 * The live view as a browser, on a session an MCP agent drives: it opens on the agent's tab (not the blank first
 * one), and its address bar navigates through the service's egress policy, which says why it refuses an address.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { CHROMIUM } from '../../support/browser-fixtures';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import {
  call,
  connect,
  httpTransport,
  ok,
  placeIn,
  servePages,
  snapshotOf,
  startPageSession,
} from '../../support/mcp-client';

let service: TestService;
let site: Awaited<ReturnType<typeof servePages>>;
let agent: Client;
let api: ApiClient;
let viewers: Browser;
let sessionId: string;

beforeAll(async () => {
  site = await servePages(
    (path) => `<!doctype html><title>Agent ${path.slice(1)}</title><h1>Page ${path}</h1>`,
  );
  // Sessions may reach this one loopback address (the test's site), and no other.
  [service, viewers] = await Promise.all([
    startServiceInProcess({ env: { EGRESS_ALLOW: '127.0.0.1' } }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true }),
  ]);
  const key = await service.createKey('enterprise');
  agent = await connect(httpTransport(service.baseUrl, key));
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  ({ id: sessionId } = await startPageSession(agent, 'Agent'));
});

afterAll(async () => {
  if (sessionId) await api.stopSession({ session_id: sessionId }).catch(() => {});
  await agent?.close();
  await viewers?.close();
  await service?.close();
  await site?.close();
});

async function openViewer(url: string): Promise<Page> {
  const viewer = await viewers.newPage({ viewport: { width: 1000, height: 700 } });
  await viewer.goto(url);
  await viewer.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  return viewer;
}

it('opens on the tab the agent works in, with its title and address, not the blank first tab', async () => {
  await ok(agent, 'browser_navigate', { session_id: sessionId, url: `${site.origin}/work` });
  const session = await api.getSession(sessionId);
  const viewer = await openViewer(session.live_view_url as string);
  await expect.poll(() => viewer.getByRole('tab').allTextContents()).toHaveLength(2);
  await expect(viewer.getByRole('tab', { selected: true }).textContent()).resolves.toBe('Agent work');
  await expect(viewer.getByLabel('Address').inputValue()).resolves.toBe(`${site.origin}/work`);
  await expect(viewer.locator('#profile').textContent()).resolves.toBe('Agent');

  // The agent opens another tab: the view follows it.
  await ok(agent, 'browser_tabs', { session_id: sessionId, action: 'new', url: `${site.origin}/second` });
  await expect
    .poll(() => viewer.getByRole('tab', { selected: true }).textContent(), { timeout: 10_000 })
    .toBe('Agent second');
  await viewer.close();
});

it('navigates from the address bar, and refuses an address the egress policy forbids, saying why and staying', async () => {
  const session = await api.getSession(sessionId);
  const viewer = await openViewer(session.live_view_url as string);
  const address = viewer.getByLabel('Address');
  await address.fill(`${site.origin}/typed`);
  await address.press('Enter');
  await expect.poll(() => snapshotOf(agent, sessionId)).toContain('Page /typed');

  const forbidden = `http://127.0.0.2:${new URL(site.origin).port}/secret`;
  await address.fill(forbidden);
  await address.press('Enter');
  await expect
    .poll(() => viewer.getByRole('status').textContent())
    .toMatch(/127\.0\.0\.2 is in the loopback range 127\.0\.0\.0\/8, which sessions may not reach/);
  await expect.poll(() => address.inputValue()).toBe(`${site.origin}/typed`);
  const agentSees = await call(agent, 'browser_snapshot', { session_id: sessionId });
  expect(placeIn(agentSees).url).toBe(`${site.origin}/typed`);

  // Back goes to the page before.
  await viewer.getByRole('button', { name: 'Back' }).click();
  await expect.poll(() => address.inputValue()).toBe(`${site.origin}/second`);
  await viewer.close();
});

it('shows a view-only link the same bar without controls', async () => {
  const session = await api.getSession(sessionId);
  const viewer = await openViewer(session.live_view_readonly_url as string);
  await expect(viewer.getByLabel('Address').getAttribute('readonly')).resolves.toBe('');
  for (const name of ['Back', 'Forward', 'Reload', 'Stop', 'Copy view-only link'])
    await expect(viewer.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
  await expect(viewer.getByRole('tab', { selected: true }).textContent()).resolves.toBe('Agent second');
  await viewer.close();
});

it('opens on the tab an automation run works in while it runs', async () => {
  const queued = await api.runAutomation({
    session_id: sessionId,
    script: {
      steps: [
        { action: 'goto', url: `${site.origin}/run` },
        { action: 'wait_for', ms: 8000 },
      ],
    },
  });
  await expect.poll(() => api.getRun(queued.id).then((run) => run.steps[1]?.status)).toBe('running');
  // A session's current page is kept 2 s: the one read by the test before may still be answered at first.
  await expect
    .poll(async () => (await api.getSession(sessionId)).current_page, { timeout: 5000 })
    .toEqual({ title: 'Agent run', url: `${site.origin}/run` });
  const session = await api.getSession(sessionId);
  const viewer = await openViewer(session.live_view_readonly_url as string);
  await expect(viewer.getByRole('tab', { selected: true }).textContent()).resolves.toBe('Agent run');
  await viewer.close();
  await api.cancelRun(queued.id);
});
