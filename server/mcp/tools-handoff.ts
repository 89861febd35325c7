import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HelpFields } from '../../lib/api/inputs/help-requests';
import { Id } from '../../lib/api/schemas/common';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { z } from '../../lib/api/zod';
import { sessionOf } from '../sessions/session-of';
import { addTool, type ToolContext } from './tool-kit';

/** request_human: asks a person for help on the agent's tab, and waits for the answer. */
export function addHandoffTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  addTool(
    server,
    ctx,
    'request_human',
    {
      acts: 'runAutomation',
      audited: false,
      title: 'Ask a person',
      description: 'Asks a person to act in your tab (2FA, consent, a choice) and waits (5 min).',
      input: z.strictObject({ session_id: Id, ...HelpFields }),
    },
    async ({ session_id, ...fields }) => {
      const row = await sessionOf(deps.db, ctx.account, session_id);
      const tab = await deps.pages.call(row, { tool: 'agent_tab', args: {}, agent: ctx.agent }, ctx.signal);
      if (!('structured' in tab) || !tab.structured) throw new Error('the agent’s tab was not named');
      const target = {
        accountId: ctx.account.id,
        sessionId: row.id,
        profileId: row.profile_id,
        tabId: String(tab.structured.tab_id),
        runId: null,
      };
      const ended = await deps.handoff.ask(target, fields, { abandoned: ctx.signal });
      return { text: sentenceOf(ended) };
    },
  );
}

/** The answer, said once: its outcome first, what the person gave, and what to do next. */
function sentenceOf(request: HelpRequest): string {
  const look = 'Take a snapshot to see the page as the person left it.';
  switch (request.outcome) {
    case 'done':
      return `done: the person did what was asked. ${look}`;
    case 'answer':
      return `answer: the person wrote ${JSON.stringify(request.text)}. ${look}`;
    case 'choice':
      return `choice: the person chose ${JSON.stringify(request.choice)}. ${look}`;
    case 'declined':
      return 'declined: the person will not do this; find another way or stop.';
    case 'timed_out':
      return `timed_out: nobody answered by ${request.expires_at}.`;
    case 'withdrawn':
      return 'withdrawn: the tab or its session closed before anyone answered.';
    default:
      return `The request ${request.id} is still open until ${request.expires_at}.`;
  }
}
