import { setTimeout as sleep } from 'node:timers/promises';
import { errors, type JSHandle, type Locator, type Page, type Request } from 'playwright-core';
import type { Step } from '../../lib/api/inputs/automation';
import type { HelpFields } from '../../lib/api/inputs/help-requests';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth';
import { proxyFailureOfError, proxyFailureOfStatus } from './proxy-failure';
import { navigationFailure, quoted, reasonOf, seconds, stepOutputTooLarge } from './sentences';
import { targetIdOf } from './tab-target';

export const ELEMENT_TIMEOUT_MS = 10_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
const SCREENSHOT_TIMEOUT_MS = 10_000;
/**
 * A wait the run's time limit cuts short gives up this much before it, so that the step fails with what it was
 * waiting for ("no element matches '#go'") rather than with the limit alone.
 */
const BEFORE_RUN_LIMIT_MS = 250;

export interface StepContext {
  page: Page;
  /** When the whole run must be over (epoch ms). */
  runDeadline: number;
  /** How long click, type, wait_for {selector} and extract wait for their element. */
  elementTimeoutMs: number;
  /** The most a step's output may weigh, as UTF-8 JSON. */
  maxOutputBytes: number;
  /** Aborts when the run is interrupted, so waits end with it. */
  stop: AbortSignal;
  saveArtifact(name: string, png: Uint8Array): Promise<string>;
  /** The egress policy's sentence if it recently refused the browser a request to `host`, else null. */
  egressRefusalOf(host: string): string | null;
  /** The profile's proxy as its list shows it (no password), which its browser goes through; null for none. */
  proxy?: string | null;
  /** Asks a person on the tab and waits until `deadline` at most (ask_human); absent where nobody can be asked. */
  askHuman?(
    fields: HelpFields,
    tabId: string,
    deadline: number,
    abandoned: AbortSignal,
  ): Promise<HelpRequest>;
}

/** What a step adds to the run's output. */
export type StepOutput = { name: string; value: unknown } | undefined;

/** A step's own time limit, cut short by the run's deadline when that comes first. */
class Budget {
  private readonly end: number;
  private readonly endsWithRun: boolean;

  constructor(
    readonly limitMs: number,
    runDeadline: number,
  ) {
    const ownEnd = Date.now() + limitMs;
    this.endsWithRun = runDeadline <= ownEnd;
    this.end = Math.min(ownEnd, runDeadline);
  }

  /** For Playwright's `timeout` option, where 0 would mean "no limit". */
  left(): number {
    return Math.max(1, this.end - Date.now() - (this.endsWithRun ? BEFORE_RUN_LIMIT_MS : 0));
  }

  /** How long the step waited, for its error: "within 10 s", or "before the run's time limit". */
  span(): string {
    return this.endsWithRun ? "before the run's time limit" : `within ${seconds(this.limitMs)}`;
  }

  /** Awaits a Playwright call made with `left()`; its timeout fails the step with `lateReason()`. */
  async within<T>(call: Promise<T>, lateReason: () => string | Promise<string>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      if (!(error instanceof errors.TimeoutError)) throw error;
      throw new Error(await lateReason());
    }
  }
}

/**
 * The first visible element matching `selector`: click and type act on what a person could act on, so a hidden
 * duplicate earlier in the page (a collapsed mobile menu, say) does not stall them.
 */
async function firstVisible(page: Page, selector: string, budget: Budget): Promise<Locator> {
  const matches = page.locator(selector);
  const target = matches.filter({ visible: true }).first();
  await budget.within(target.waitFor({ state: 'visible', timeout: budget.left() }), async () => {
    const hiddenOnes = await matches.count();
    return `no ${hiddenOnes > 0 ? 'visible ' : ''}element matches ${quoted(selector)} ${budget.span()}`;
  });
  return target;
}

/** Extract reads the first match in document order, visible or not (meta tags and hidden data count). */
async function firstAttached(page: Page, selector: string, budget: Budget): Promise<Locator> {
  const target = page.locator(selector).first();
  await budget.within(
    target.waitFor({ state: 'attached', timeout: budget.left() }),
    () => `no element matches ${quoted(selector)} ${budget.span()}`,
  );
  return target;
}

/**
 * The page value as JSON sees it (dates become strings, undefined becomes null), made and weighed in the page
 * itself, so that a result over the limit never crosses into the service.
 */
async function jsonValue(handle: JSHandle, maxBytes: number): Promise<unknown> {
  let json: { text: string | undefined } | { size: number };
  try {
    json = await handle.evaluate((value, limit) => {
      const text = JSON.stringify(value);
      const size = text === undefined ? 0 : new Blob([text]).size;
      return size > limit ? { size } : { text };
    }, maxBytes);
  } catch (error) {
    throw new Error(`its result cannot be stored as JSON (${reasonOf(error)})`);
  }
  if ('size' in json) throw new Error(stepOutputTooLarge(json.size, maxBytes));
  if (json.text === undefined) return null;
  // Storing it walks it: a value within the size limit can still nest deeper than any stack.
  if (nestsDeeperThan(json.text))
    throw new Error(`its result nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
  return JSON.parse(json.text);
}

async function evaluate(ctx: StepContext, expression: string, name: string | undefined): Promise<StepOutput> {
  // A handle keeps the result in the page: an unnamed result is never copied, a named one is turned into JSON.
  const handle = await ctx.page.evaluateHandle(expression);
  try {
    return name === undefined ? undefined : { name, value: await jsonValue(handle, ctx.maxOutputBytes) };
  } finally {
    await handle.dispose();
  }
}

function withinLimit(value: string | null, maxBytes: number): string | null {
  const size = value === null ? 0 : Buffer.byteLength(JSON.stringify(value));
  if (size > maxBytes) throw new Error(stepOutputTooLarge(size, maxBytes));
  return value;
}

async function screenshot(ctx: StepContext, name: string): Promise<StepOutput> {
  const budget = new Budget(SCREENSHOT_TIMEOUT_MS, ctx.runDeadline);
  const png = await budget.within(
    ctx.page.screenshot({ type: 'png', timeout: budget.left() }),
    () => `the screenshot was not taken ${budget.span()}`,
  );
  try {
    return { name, value: await ctx.saveArtifact(name, png) };
  } catch (error) {
    throw new Error(`the screenshot could not be stored (${reasonOf(error)})`);
  }
}

/**
 * Navigates, and fails with the egress policy's sentence when the policy refused the navigation or the last
 * redirect of it: the relay then answers 403 (plain HTTP) or refuses the tunnel (HTTPS). What is read is the
 * relay's own record for the browser's requests, which no page can write.
 */
async function goto(ctx: StepContext, url: string): Promise<StepOutput> {
  const { page } = ctx;
  const budget = new Budget(NAVIGATION_TIMEOUT_MS, ctx.runDeadline);
  let lastHost: string | null = null;
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      lastHost = new URL(request.url()).hostname;
  };
  const refusal = () => {
    const sentence = lastHost === null ? null : ctx.egressRefusalOf(lastHost);
    return sentence === null ? null : new Error(sentence.replace(/\.$/, ''));
  };
  page.on('request', onRequest);
  try {
    const response = await budget.within(
      page.goto(url, { waitUntil: 'load', timeout: budget.left() }).catch((error: unknown) => {
        if (error instanceof errors.TimeoutError) throw error;
        throw refusal() ?? proxyFailureOfError(ctx.proxy, error) ?? new Error(navigationFailure(error));
      }),
      () => `the page did not finish loading ${budget.span()}`,
    );
    const refused =
      response?.status() === 403 ? refusal() : proxyFailureOfStatus(ctx.proxy, response?.status());
    if (refused) throw refused;
    return undefined;
  } finally {
    page.off('request', onRequest);
  }
}

/** Waits for a person's answer on the run's tab, ending just before the run's time limit so the step reports it. */
async function askHuman(ctx: StepContext, step: Extract<Step, { action: 'ask_human' }>): Promise<StepOutput> {
  if (!ctx.askHuman) throw new Error('nobody can be asked from here');
  const { action: _, name, ...fields } = step;
  const deadline = ctx.runDeadline - BEFORE_RUN_LIMIT_MS;
  const tabId = await targetIdOf(ctx.page);
  if (tabId === null) throw new Error("the run's tab could not be named");
  const ended = await ctx.askHuman(fields, tabId, deadline, ctx.stop);
  const answer = {
    outcome: ended.outcome,
    ...(ended.text === null ? {} : { text: ended.text }),
    ...(ended.choice === null ? {} : { choice: ended.choice }),
  };
  return name === undefined ? undefined : { name, value: answer };
}

/** Runs one step on a page (a run's or an agent's); throws an Error worded to end "Step N (…) failed: …". */
export async function runStep(step: Step, ctx: StepContext): Promise<StepOutput> {
  const { page } = ctx;
  const elementBudget = () => new Budget(ctx.elementTimeoutMs, ctx.runDeadline);
  switch (step.action) {
    case 'goto':
      return goto(ctx, step.url);
    case 'click': {
      const budget = elementBudget();
      const target = await firstVisible(page, step.selector, budget);
      await budget.within(
        target.click({ timeout: budget.left() }),
        () => `${quoted(step.selector)} is visible but did not take the click ${budget.span()}`,
      );
      return undefined;
    }
    case 'type': {
      // fill, not keystrokes: it replaces the field's value in one go and fires `input` like a paste, so a
      // script's result does not depend on what was in the field, on autocomplete or on per-key timing, and
      // 10000 characters take milliseconds, not minutes.
      const budget = elementBudget();
      const target = await firstVisible(page, step.selector, budget);
      await budget.within(
        target.fill(step.text, { timeout: budget.left() }),
        () => `${quoted(step.selector)} is visible but could not be filled ${budget.span()}`,
      );
      return undefined;
    }
    case 'wait_for': {
      if (step.selector === undefined) await sleep(step.ms ?? 0, undefined, { signal: ctx.stop });
      else await firstVisible(page, step.selector, elementBudget());
      return undefined;
    }
    case 'extract': {
      const budget = elementBudget();
      const target = await firstAttached(page, step.selector, budget);
      const late = () => `${quoted(step.selector)} went away before it could be read`;
      const value =
        step.attribute === undefined
          ? ((await budget.within(target.textContent({ timeout: budget.left() }), late))?.trim() ?? null)
          : await budget.within(target.getAttribute(step.attribute, { timeout: budget.left() }), late);
      return { name: step.name, value: withinLimit(value, ctx.maxOutputBytes) };
    }
    case 'evaluate':
      return evaluate(ctx, step.expression, step.name);
    case 'screenshot':
      return screenshot(ctx, step.name);
    case 'ask_human':
      return askHuman(ctx, step);
  }
}
