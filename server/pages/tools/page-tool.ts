import type { Page } from 'playwright-core';
import type { PageAnswer } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import type { AgentDownloads } from '../page-downloads';
import { ELEMENT_TIMEOUT_MS, type StepContext } from '../steps';

/** How long one page tool may take in all: a navigation's 30 s, with room to connect. */
const CALL_TIME_LIMIT_MS = 45_000;

/** One agent's tabs in a session's browser: the one it acts on, all of its own, and its downloads. */
export interface AgentTabs {
  current: Page;
  /** The agent's open tabs (its own and those their pages opened), in the order they opened. */
  list(): Page[];
  /** Opens a tab of the agent's in the browser's default context, beside the person's. */
  newTab(): Promise<Page>;
  /** Runs an action on the page; a tab that opens without an opener meanwhile (a middle click's) is the agent's. */
  acting<T>(action: Promise<T>): Promise<T>;
  downloads: AgentDownloads;
}

/** What a page tool may use beside its tab: the session's limits and the call's end. */
export interface PageToolContext {
  /** The most a step's output (an evaluation, a snapshot) may weigh. */
  maxOutputBytes: number;
  evaluateTimeoutMs: number;
  /** Aborts when the caller no longer waits or the connection to the browser ends. */
  stop: AbortSignal;
  egressRefusalOf(host: string): string | null;
}

/**
 * One page tool, whole: what a model chooses it by, its arguments (the MCP door adds `session_id`), and what it
 * does on the agent's tab. A new tool is one file that exports one of these, and one line in `index.ts`.
 */
export interface PageTool<Shape extends z.core.$ZodShape = z.core.$ZodShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  /** The input as tools/list shows it, where `input` says more than a caller needs (every call is still checked). */
  advertised?: z.core.$ZodShape;
  /** Reads the page or what was recorded, changing nothing. */
  readOnly?: true;
  /**
   * Runs while a dialog holds the page (reading what was recorded, acting on tabs, answering the dialog): any
   * other tool is refused until the dialog is answered, and answers as soon as one opens while it runs.
   */
  whileDialogOpen?: true;
  run(tab: AgentTabs, args: z.output<z.ZodMiniObject<Shape>>, context: PageToolContext): Promise<PageAnswer>;
}

/** A page tool, typed from its input shape (as playwright-mcp's `defineTool`). */
export function definePageTool<Shape extends z.core.$ZodShape>(tool: PageTool<Shape>): PageTool<Shape> {
  return tool;
}

/** The same tool, seen from a list of tools of every shape. */
export type AnyPageTool = PageTool<z.core.$ZodShape>;

/** How long click, type and the other element actions wait for their element. */
export const ELEMENT_TIMEOUT = ELEMENT_TIMEOUT_MS;

/** What an automation run's step needs, for a tool that acts as that step does (navigation, screenshot). */
export function stepContext(
  tab: AgentTabs,
  context: PageToolContext,
  saveArtifact: StepContext['saveArtifact'] = async () => {
    throw new Error('this tool stores no image');
  },
): StepContext {
  return {
    page: tab.current,
    runDeadline: Date.now() + CALL_TIME_LIMIT_MS,
    elementTimeoutMs: ELEMENT_TIMEOUT_MS,
    maxOutputBytes: context.maxOutputBytes,
    stop: context.stop,
    egressRefusalOf: context.egressRefusalOf,
    saveArtifact,
  };
}

/** The object schema of a tool's input. */
export const inputOf = (tool: AnyPageTool) => z.object(tool.input);
