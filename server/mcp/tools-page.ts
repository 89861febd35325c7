import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PageAnswer } from '../../lib/api/inputs/page-tools';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { PAGE_TOOLS } from '../pages/tools';
import { sessionOf } from '../sessions/session-of';
import { addTool, type ToolAnswer, type ToolContext } from './tool-kit';

/** The page tools: each names a running session and acts on its browser, on whichever node runs it. */
export function addPageTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  for (const tool of PAGE_TOOLS)
    addTool(
      server,
      ctx,
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        input: z.object({ session_id: Id, ...tool.input }),
        ...(tool.advertised ? { advertised: z.object({ session_id: Id, ...tool.advertised }) } : {}),
        // Reading a page is watching it; acting on it is running a script by hand.
        acts: tool.readOnly ? 'getSessionThumbnail' : 'runAutomation',
        audited: false,
        // openWorldHint is true and readOnlyHint false unless said: only a read-only tool says so.
        ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
      },
      async ({ session_id, ...args }) => {
        const row = await sessionOf(deps.db, ctx.account, session_id);
        return toToolAnswer(
          await deps.pages.call(row, { tool: tool.name, args, agent: ctx.agent }, ctx.signal),
        );
      },
    );
}

function toToolAnswer(answer: PageAnswer): ToolAnswer {
  if ('image' in answer) {
    return {
      content: [
        { type: 'image', data: answer.image.data, mimeType: answer.image.mimeType },
        { type: 'text', text: answer.text },
      ],
    };
  }
  return { text: answer.text };
}
