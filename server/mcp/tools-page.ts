import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PageAnswer, PageCall, PageToolName } from '../../lib/api/inputs/page-tools';
import { pageInputs } from '../../lib/api/inputs/page-tools';
import { z } from '../../lib/api/zod';
import { NotFound, PageProblem } from '../core/domain-errors';

import { findSession } from '../store/sessions';
import { addTool, type ToolAnswer, type ToolContext } from './tool-kit';

/** What each page tool does and when to use it, in the fewest words, for the model that chooses. */
const PAGE_TOOLS: Record<PageToolName, { title: string; description: string; readOnly?: true }> = {
  browser_navigate: {
    title: 'Open an address',
    description: 'Opens url in the agent’s tab via the profile’s proxy; waits for the load (30 s).',
  },
  browser_snapshot: {
    title: 'Read the page',
    description: 'The page’s accessibility tree as text; elements to act on carry [ref=eN].',
    readOnly: true,
  },
  browser_click: {
    title: 'Click an element',
    description: 'Clicks the element of a ref.',
  },
  browser_hover: { title: 'Hover an element', description: 'Hovers over the element of a ref.' },
  browser_drag: { title: 'Drag and drop', description: 'Drags ref’s element onto to_ref’s.' },
  browser_history: { title: 'Go back or forward', description: 'Goes back or forward in the tab’s history.' },
  browser_handle_dialog: {
    title: 'Answer a dialog',
    description: 'Accepts (with a prompt’s prompt_text) or dismisses the page’s open dialog.',
  },
  browser_file_upload: {
    title: 'Upload files',
    description: 'Gives base64 files (512 KB each, 700 KB in all) to the file input or chooser of ref.',
  },
  browser_console_messages: {
    title: 'Read the console',
    description: 'The tab’s newest console messages and page errors (50; limit).',
    readOnly: true,
  },
  browser_network_requests: {
    title: 'List network requests',
    description: 'The tab’s newest requests and statuses (50; limit); headers: with secrets redacted.',
    readOnly: true,
  },
  browser_type: {
    title: 'Type into a field',
    description: 'Replaces the text of a field; submit presses Enter after.',
  },
  browser_fill_form: {
    title: 'Fill several fields',
    description: 'Fills several fields by ref in one call.',
  },
  browser_select_option: {
    title: 'Choose options of a select',
    description: 'Chooses options (by value or label) of a select.',
  },
  browser_press_key: { title: 'Press a key', description: 'Presses a key in the focused element.' },
  browser_wait_for: {
    title: 'Wait for text, a download or time',
    description: 'Waits for text, text_gone to go, a new download (20 s), or time seconds.',
    readOnly: true,
  },
  browser_take_screenshot: {
    title: 'Screenshot the page',
    description: 'A PNG of the tab (full_page: all). Prefer browser_snapshot.',
    readOnly: true,
  },
  browser_evaluate: {
    title: 'Run JavaScript in the page',
    description: 'The JSON value of an expression in the page (a promise is awaited, 20 s).',
  },
  browser_tabs: {
    title: 'List, open, select or close tabs',
    description:
      'list; new: opens one (at url) as the agent’s; select: makes index the agent’s; close: closes index.',
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
        // openWorldHint is true and readOnlyHint false unless said: only a read-only tool says so.
        ...(words.readOnly ? { annotations: { readOnlyHint: true } } : {}),
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
