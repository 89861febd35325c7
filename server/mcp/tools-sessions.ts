import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CookieImport } from '../../lib/api/inputs/cookies';
import { SessionListQuery } from '../../lib/api/inputs/queries';
import { SessionStart } from '../../lib/api/inputs/sessions';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { NotFound } from '../core/domain-errors';
import { readCursor } from '../http/validate';
import { findSession, listSessions } from '../store/sessions';
import { addTool, type ToolContext } from './tool-kit';

const ProfileId = Id.check(z.describe('The profile (prf_…).'));

/** The session and cookie tools: the same functions as /v1/sessions and /v1/profiles/:id/cookies. */
export function addSessionTools(server: McpServer, ctx: ToolContext): void {
  const accountId = ctx.account.id;
  const { deps, origin } = ctx;
  const { sessions } = deps;

  addTool(
    server,
    ctx,
    'list_sessions',
    {
      title: 'List browser sessions',
      description:
        'Lists your sessions (running browsers and recent stopped ones), newest first; filter with status ' +
        '(running to see what is open). Use it to find a session_id for the browser_* tools. Cost: one request.',
      input: SessionListQuery,
      annotations: { readOnlyHint: true },
    },
    async (query) => ({
      structured: {
        ...(await listSessions(
          deps.db,
          accountId,
          { limit: query.limit, after: readCursor(query.cursor), status: query.status },
          (row) => sessions.view(row, origin),
        )),
      },
    }),
  );

  addTool(
    server,
    ctx,
    'start_session',
    {
      title: 'Start a profile’s browser',
      description:
        'Starts a real browser for the profile, with its cookies, fingerprint and proxy, and answers the running ' +
        'session; pass its id as session_id to the browser_* tools. One session per profile; your plan caps how ' +
        'many run at once, so stop sessions you are done with. Cost: one request; takes a few seconds.',
      input: SessionStart,
    },
    async ({ profile_id, headless }) => ({
      structured: sessions.view(await sessions.start(accountId, profile_id, headless), origin),
    }),
  );

  addTool(
    server,
    ctx,
    'stop_session',
    {
      title: 'Stop a browser session',
      description:
        'Stops a session’s browser and saves the profile’s state (cookies, storage) for its next start. Do it ' +
        'when done: a running session holds one of your plan’s session slots. Free: never counted, so it works ' +
        'even over the hourly limit.',
      input: z.object({ session_id: Id.check(z.describe('The session (ses_…).')) }),
      annotations: { destructiveHint: false, idempotentHint: true },
      free: true,
    },
    async ({ session_id }) => {
      const row = await findSession(deps.db, accountId, session_id);
      if (!row) throw new NotFound('session');
      return { structured: await sessions.stop(row, 'user') };
    },
  );

  addTool(
    server,
    ctx,
    'get_cookies',
    {
      title: 'Read a profile’s cookies',
      description:
        'Reads every cookie of a profile, from its running browser or, when stopped, from its saved state. ' +
        'Cost: one request; the answer can be large.',
      input: z.object({ profile_id: ProfileId }),
      annotations: { readOnlyHint: true },
    },
    async ({ profile_id }) => ({ structured: { cookies: await deps.cookies.read(accountId, profile_id) } }),
  );

  addTool(
    server,
    ctx,
    'set_cookies',
    {
      title: 'Import cookies into a profile',
      description:
        'Adds cookies to a profile (in its running browser, or its saved state when stopped); replace: true ' +
        'removes the others first. Cookies without an expiry are session cookies and are not kept. Cost: one request.',
      input: z.object({
        profile_id: ProfileId,
        cookies: CookieImport,
        replace: z.optional(z.boolean().check(z.describe('Remove the profile’s other cookies first.'))),
      }),
    },
    async ({ profile_id, cookies, replace }) => {
      const imported = await deps.cookies.write(accountId, profile_id, cookies, replace === true);
      return {
        structured: {
          imported,
          session_cookies_not_kept: cookies.length - imported,
          replaced: replace === true,
        },
      };
    },
  );
}
