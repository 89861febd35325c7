import type { Page } from 'playwright-core';
import type { PageAnswer, PageCall } from '../../lib/api/inputs/page-tools';
import { PageProblem } from '../core/domain-errors';
import {
  answerDialog,
  dialogLine,
  openDialog,
  refuseWhileOpen,
  unlessDialogOpens,
  watchDialogs,
} from './page-dialogs';
import { type AgentDownloads, noteDownloadsSoFar } from './page-downloads';
import { evaluateInPage } from './page-evaluate';
import { consoleMessages, networkRequests, watchNetwork } from './page-logs';

import { PageRefs } from './page-refs';
import { cutUrl } from './page-text';
import { decodeUploads, uploadFiles } from './page-upload';
import { waitFor } from './page-wait';
import { addressOf, where } from './page-where';
import { ELEMENT_TIMEOUT_MS, runStep, type StepContext } from './steps';
import { targetIdOf } from './tab-target';

/** How long one page tool may take in all: a navigation's 30 s, with room to connect. */
const CALL_TIME_LIMIT_MS = 45_000;
/** How long going back from a failed navigation's error page may take. */
const GO_BACK = { waitUntil: 'load', timeout: 10_000 } as const;
/** The largest image a screenshot answers (a full page can be tens of megabytes). */
export const MAX_SCREENSHOT_BYTES = 5 * 2 ** 20;

/** The agent's tabs in one session's browser: the one it acts on, and the refs of each tab's latest snapshot. */
export interface AgentTabs {
  current: Page;
  /** Opens a tab in the browser's default context, beside the person's. */
  newTab(): Promise<Page>;
  downloads: AgentDownloads;
}

/** Tools that read what was recorded, or act on tabs, and so still answer while a dialog holds the page. */
const WHILE_DIALOG_OPEN = new Set<PageCall['tool']>([
  'browser_console_messages',
  'browser_network_requests',
  'browser_tabs',
]);

const refsOf = new WeakMap<Page, PageRefs>();

function refs(page: Page): PageRefs {
  let known = refsOf.get(page);
  if (!known) {
    known = new PageRefs(page);
    refsOf.set(page, known);
  }
  return known;
}

/** Starts watching a tab's navigations, dialogs and requests before the agent acts on it. */
export function watchTab(page: Page): void {
  if (refsOf.has(page)) return;
  refs(page);
  watchDialogs(page);
  watchNetwork(page);
}

/**
 * Performs one page tool on the agent's tab, through the same steps as an automation run where there is one
 * (navigation, evaluation, screenshot: same time limits, same output size limit, same sentences).
 */
type PageCallContext = Pick<StepContext, 'maxOutputBytes' | 'stop' | 'egressRefusalOf'> & {
  evaluateTimeoutMs: number;
};

export async function performPageCall(
  tabs: AgentTabs,
  call: PageCall,
  context: PageCallContext,
): Promise<PageAnswer> {
  if (tabs.current.isClosed()) {
    // The person (or a page) closed the agent's tab: it goes on in another one.
    tabs.current = tabs.current.context().pages()[0] ?? (await tabs.newTab());
    watchTab(tabs.current);
  }
  await noteDownloadsSoFar(tabs.downloads);
  const page = tabs.current;
  if (call.tool === 'browser_handle_dialog')
    return where(page, await answerDialog(page, call.args.accept, call.args.prompt_text));
  if (WHILE_DIALOG_OPEN.has(call.tool)) return perform(tabs, call, context);
  const dialog = openDialog(page);
  if (dialog && call.tool === 'browser_snapshot') {
    const url = cutUrl(page.url());
    return {
      text: `Page URL: ${url}\n${dialogLine(dialog)}`,
      structured: { url, dialog: dialogLine(dialog) },
    };
  }
  refuseWhileOpen(page);
  return unlessDialogOpens(page, perform(tabs, call, context), () => where(page, 'A dialog opened.'));
}

async function perform(tabs: AgentTabs, call: PageCall, context: PageCallContext): Promise<PageAnswer> {
  const { maxOutputBytes, stop, egressRefusalOf, evaluateTimeoutMs } = context;
  let shot: Uint8Array | null = null;
  const ctx = (): StepContext => ({
    page: tabs.current,
    runDeadline: Date.now() + CALL_TIME_LIMIT_MS,
    elementTimeoutMs: ELEMENT_TIMEOUT_MS,
    maxOutputBytes,
    stop,
    egressRefusalOf,
    saveArtifact: async (_name, png) => {
      shot = png;
      return 'screenshot';
    },
  });
  const page = tabs.current;
  const timeout = ELEMENT_TIMEOUT_MS;
  const target = (ref: string, element?: string) => refs(page).locate(ref, element);
  switch (call.tool) {
    case 'browser_navigate':
      await navigateOrStay(page, () => runStep({ action: 'goto', url: call.args.url }, ctx()));
      return where(page, 'Navigated.');
    case 'browser_snapshot': {
      const snapshot = await refs(page).snapshot(maxOutputBytes);
      const { url, title } = await addressOf(page);
      return {
        text: `Page URL: ${url}\nPage title: ${title}\n\`\`\`yaml\n${snapshot}\n\`\`\``,
        structured: { url, title, snapshot },
      };
    }
    case 'browser_click': {
      const { ref, element, double, button, modifiers } = call.args;
      const options = { timeout, button, modifiers };
      if (double) await (await target(ref, element)).dblclick(options);
      else await (await target(ref, element)).click(options);
      return where(page, `${double ? 'Double-clicked' : 'Clicked'} ${element ?? ref}.`);
    }
    case 'browser_hover':
      await (await target(call.args.ref)).hover({ timeout });
      return where(page, `Hovering over ${call.args.ref}.`);
    case 'browser_drag': {
      const [from, to] = [await target(call.args.ref), await target(call.args.to_ref)];
      await from.dragTo(to, { timeout });
      return where(page, `Dragged ${call.args.ref} onto ${call.args.to_ref}.`);
    }
    case 'browser_history': {
      const before = page.url();
      const how = { waitUntil: 'commit', timeout: GO_BACK.timeout } as const;
      const went = call.args.go === 'back' ? await page.goBack(how) : await page.goForward(how);
      if (went === null && page.url() === before)
        throw new PageProblem(`There is no page to go ${call.args.go} to.`);
      // A page the back-forward cache restored (no response) is loaded again: Playwright's refs do not follow a
      // restored document, so the next snapshot's would not resolve.
      if (went === null) await page.reload(GO_BACK);
      return where(page, `Went ${call.args.go}.`);
    }
    case 'browser_file_upload': {
      const files = decodeUploads(call.args.files);
      await uploadFiles(page, await target(call.args.ref), files, timeout);
      return where(page, `Uploaded ${files.map((file) => JSON.stringify(file.name)).join(', ')}.`);
    }
    case 'browser_console_messages':
      return consoleMessages(page, call.args.limit);
    case 'browser_network_requests':
      return networkRequests(page, call.args);
    case 'browser_handle_dialog':
      throw new Error('answered before');
    case 'browser_type': {
      const target = await refs(page).locate(call.args.ref, call.args.element);
      await target.fill(call.args.text, { timeout });
      if (call.args.submit) await target.press('Enter', { timeout });
      return where(
        page,
        `Typed into ${call.args.element ?? call.args.ref}${call.args.submit ? ' and pressed Enter' : ''}.`,
      );
    }
    case 'browser_fill_form': {
      for (const field of call.args.fields) {
        const target = await refs(page).locate(field.ref, field.name);
        if (field.type === 'checkbox' || field.type === 'radio')
          await target.setChecked(field.value === 'true', { timeout });
        else if (field.type === 'combobox') await target.selectOption(field.value, { timeout });
        else await target.fill(field.value, { timeout });
      }
      return where(
        page,
        `Filled ${call.args.fields.length} field${call.args.fields.length === 1 ? '' : 's'}.`,
      );
    }
    case 'browser_select_option': {
      const target = await refs(page).locate(call.args.ref, call.args.element);
      const chosen = await target.selectOption(call.args.values, { timeout });
      return where(page, `Selected ${chosen.join(', ')}.`);
    }
    case 'browser_press_key':
      await page.keyboard.press(call.args.key);
      return where(page, `Pressed ${call.args.key}.`);
    case 'browser_wait_for':
      return waitFor(page, tabs.downloads, call.args, stop);
    case 'browser_take_screenshot': {
      // The visible part as a run's screenshot step takes it; the whole page only when asked.
      if (call.args.full_page) shot = await page.screenshot({ type: 'png', fullPage: true, timeout });
      else await runStep({ action: 'screenshot', name: 'screenshot' }, ctx());
      const png: Uint8Array | null = shot;
      if (!png) throw new Error('the screenshot step stored no image');
      if (png.byteLength > MAX_SCREENSHOT_BYTES)
        throw new PageProblem(
          `The screenshot is ${(png.byteLength / 2 ** 20).toFixed(1)} MB, over the ${MAX_SCREENSHOT_BYTES / 2 ** 20} MB an answer may carry; take the visible part (without full_page) or read the page with browser_snapshot.`,
        );
      const data = Buffer.from(png).toString('base64');
      return { text: `Screenshot of ${cutUrl(page.url())}.`, image: { data, mimeType: 'image/png' } };
    }
    case 'browser_evaluate': {
      const result = await evaluateInPage(page, call.args.expression, {
        maxBytes: maxOutputBytes,
        stop,
        timeLimitMs: evaluateTimeoutMs,
      });
      return { text: JSON.stringify(result), structured: { result } };
    }
    case 'browser_tabs':
      return switchTabs(tabs, call.args, ctx);
    case 'agent_tab': {
      const tabId = await targetIdOf(page);
      if (tabId === null) throw new Error('the tab could not be named');
      return { text: tabId, structured: { tab_id: tabId, ...(await addressOf(page)) } };
    }
  }
}

/**
 * A navigation that fails (refused by the network policy, unreachable, too slow) leaves the tab where it was: the
 * error page it committed is left by going back, and the answer says where the tab is.
 */
async function navigateOrStay(page: Page, navigate: () => Promise<unknown>): Promise<void> {
  const before = page.url();
  try {
    await navigate();
  } catch (error) {
    // A network error's page may commit only after the navigation was reported failed.
    if (page.url() === before)
      await page
        .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 1_000 })
        .catch(() => null);
    if (page.url() !== before) await page.goBack(GO_BACK).catch(() => null);
    // An error page that took the place of the entry has nothing to go back to: open the address again.
    if (page.url() !== before && /^https?:/.test(before)) await page.goto(before, GO_BACK).catch(() => null);
    const now = page.url();
    const stays = now === before ? `The tab stays at ${cutUrl(before)}.` : `The tab is at ${cutUrl(now)}.`;
    throw new PageProblem(`${error instanceof Error ? error.message : String(error)}. ${stays}`);
  }
}

async function switchTabs(
  tabs: AgentTabs,
  { action, index, url }: { action: 'list' | 'new' | 'select' | 'close'; index?: number; url?: string },
  ctx: () => StepContext,
): Promise<PageAnswer> {
  const open = () => tabs.current.context().pages();
  const pick = (): Page => {
    const page = index === undefined ? tabs.current : open()[index];
    if (!page) throw new PageProblem(`There is no tab ${index}; list the tabs to see their numbers.`);
    return page;
  };
  if (action === 'new') {
    tabs.current = await tabs.newTab();
    watchTab(tabs.current);
    if (url) await runStep({ action: 'goto', url }, ctx());
  } else if (action === 'select') {
    tabs.current = pick();
    watchTab(tabs.current);
    await tabs.current.bringToFront();
  } else if (action === 'close') {
    const closing = pick();
    if (open().length === 1) throw new PageProblem('This is the browser’s last tab; it stays open.');
    await closing.close();
    if (closing === tabs.current) tabs.current = open()[0] as Page;
  }
  const list = await Promise.all(
    open().map(async (page, number) => ({
      index: number,
      ...(await addressOf(page)),
      current: page === tabs.current,
    })),
  );
  const lines = list.map((tab) => `${tab.index}: ${tab.current ? '(current) ' : ''}${tab.title} ${tab.url}`);
  return { text: lines.join('\n'), structured: { tabs: list } };
}
