import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PageAnswer, PageCall, PageToolName } from '../../lib/api/inputs/page-tools';
import { pageInputs } from '../../lib/api/inputs/page-tools';
import { z } from '../../lib/api/zod';
import { NotFound } from '../core/domain-errors';
import { PageProblem } from '../pages/page-problem';
import { findSession } from '../store/sessions';
import { addTool, type ToolAnswer, type ToolContext } from './tool-kit';

const REF_NOTE = 'Refs come from the latest browser_snapshot and are stale once the page changes.';

/** What each page tool does, when to use it and what it costs, for the model that chooses. */
const PAGE_TOOLS: Record<PageToolName, { title: string; description: string; readOnly?: true }> = {
  browser_navigate: {
    title: 'Open an address',
    description:
      'Opens an http(s) address in the agent’s tab of the session’s browser and waits for it to load (30 s at ' +
      'most), through the profile’s proxy under the service’s network policy. Then take a browser_snapshot. ' +
      'Cost: one request.',
  },
  browser_snapshot: {
    title: 'Read the page',
    description:
      'Answers the page’s accessibility tree as YAML-like text: roles, names, values and states, every element ' +
      'you can act on marked [ref=eN]. Use it before acting and after anything that changes the page; it is ' +
      'cheaper and more exact than a screenshot. Cost: one request; a big page gives a long text.',
    readOnly: true,
  },
  browser_click: {
    title: 'Click an element',
    description: `Clicks the element of a ref. ${REF_NOTE} Cost: one request.`,
  },
  browser_type: {
    title: 'Type into a field',
    description: `Replaces the text of the field of a ref with text; submit: true presses Enter after. ${REF_NOTE} Cost: one request.`,
  },
  browser_fill_form: {
    title: 'Fill several fields',
    description: `Fills several fields in one call (textboxes, checkboxes, radios, comboboxes, sliders) by ref. ${REF_NOTE} Cost: one request for all of them.`,
  },
  browser_select_option: {
    title: 'Choose options of a select',
    description: `Chooses one or more options (by value or label) of the select of a ref. ${REF_NOTE} Cost: one request.`,
  },
  browser_press_key: {
    title: 'Press a key',
    description:
      'Presses a key (Enter, Tab, Escape, ArrowDown, a letter…) in the focused element. Cost: one request.',
  },
  browser_wait_for: {
    title: 'Wait for text or time',
    description:
      'Waits until text appears, text_gone disappears (20 s at most), or time seconds pass. Use it after an ' +
      'action that loads content slowly. Cost: one request.',
    readOnly: true,
  },
  browser_take_screenshot: {
    title: 'Screenshot the page',
    description:
      'Answers a PNG image of the tab (full_page for the whole page). For reading and acting use browser_snapshot; ' +
      'a screenshot is for what only pixels show. Cost: one request; an image is many tokens.',
    readOnly: true,
  },
  browser_evaluate: {
    title: 'Run JavaScript in the page',
    description:
      'Evaluates a JavaScript expression in the page and answers its JSON value (1 MB at most); a promise is ' +
      'awaited, 20 s at most, then the evaluation is ended. Use it to read what the snapshot does not show. ' +
      'Cost: one request.',
  },
  browser_tabs: {
    title: 'List, open, select or close tabs',
    description:
      'list: the browser’s tabs with their index; new: opens a tab (at url if given) and makes it the agent’s; ' +
      'select: makes tab index the agent’s; close: closes tab index (the agent’s when left out). Cost: one request.',
  },
};

/** The page tools: each names a running session and acts on its browser, on whichever node runs it. */
export function addPageTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  for (const [name, words] of Object.entries(PAGE_TOOLS) as [
    PageToolName,
    (typeof PAGE_TOOLS)[PageToolName],
  ][]) {
    addTool(
      server,
      ctx,
      name,
      {
        title: words.title,
        description: words.description,
        input: z.object(pageInputs[name]),
        annotations: { readOnlyHint: words.readOnly === true, openWorldHint: true },
      },
      async (args) => {
        const { session_id } = args as { session_id: string };
        const row = await findSession(deps.db, ctx.account.id, session_id);
        if (!row) throw new NotFound('session');
        return toToolAnswer(await deps.pages.call(row, { tool: name, args } as PageCall, ctx.signal));
      },
    );
  }
}

function toToolAnswer(answer: PageAnswer): ToolAnswer {
  if ('error' in answer) throw new PageProblem(answer.error);
  if ('image' in answer) {
    return {
      content: [
        { type: 'image', data: answer.image.data, mimeType: answer.image.mimeType },
        { type: 'text', text: answer.text },
      ],
    };
  }
  return { structured: answer.structured, text: answer.text };
}
