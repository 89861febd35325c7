import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CookieImport } from '../../lib/api/inputs/cookies';
import { SessionListQuery } from '../../lib/api/inputs/queries';
import { SessionStart } from '../../lib/api/inputs/sessions';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { readCursor } from '../http/validate';
import { requireInScope } from '../profiles/in-scope';
import { sessionOf } from '../sessions/session-of';
import { listSessions } from '../store/sessions';
import { Detail, linesAnswer, sessionLine } from './compact';
import { addTool, type ToolContext } from './tool-kit';

/** The session and cookie tools: the same functions as /v1/sessions and /v1/profiles/:id/cookies. */
export function addSessionTools(server: McpServer, ctx: ToolContext): void {
  const { deps, origin } = ctx;
  const { sessions } = deps;

  addTool(
    server,
    ctx,
    'list_sessions',
    {
      acts: 'listSessions',
      title: 'List browser sessions',
      description: 'One line per session, newest first.',
      input: z.extend(SessionListQuery, { detail: Detail }),
      annotations: { readOnlyHint: true },
    },
    async ({ detail, ...query }) => {
      const page = await listSessions(
        deps.db,
        ctx.account,
        { limit: query.limit, after: readCursor(query.cursor), status: query.status },
        (row) => sessions.view(row, origin),
      );
      return detail ? { structured: { ...page } } : linesAnswer('sessions', page, sessionLine);
    },
  );

  addTool(
    server,
    ctx,
    'start_session',
    {
      acts: 'startSession',
      title: 'Start a profile’s browser',
      description: 'Starts the profile’s browser; its id is the session_id of browser_*.',
      input: SessionStart,
    },
    async ({ profile_id, headless }) => {
      await requireInScope(deps.db, ctx.account, profile_id);
      return {
        structured: sessions.view(
          await sessions.start(ctx.account.id, profile_id, ctx.account.member, headless),
          origin,
        ),
      };
    },
  );

  addTool(
    server,
    ctx,
    'stop_session',
    {
      acts: 'stopSession',
      title: 'Stop a browser session',
      description: 'Stops a session’s browser, keeping its data; never counted.',
      input: z.object({ session_id: Id }),
      annotations: { destructiveHint: false, idempotentHint: true },
      free: true,
    },
    async ({ session_id }) => {
      const row = await sessionOf(deps.db, ctx.account, session_id);
      return { structured: await sessions.stop(row, 'user') };
    },
  );

  addTool(
    server,
    ctx,
    'get_cookies',
    {
      acts: 'getProfileCookies',
      title: 'Read a profile’s cookies',
      description: 'A profile’s cookies, running or not.',
      input: z.object({ profile_id: Id }),
      annotations: { readOnlyHint: true },
    },
    async ({ profile_id }) => ({
      structured: { cookies: await deps.cookies.read(ctx.account, profile_id, ctx.account.member) },
    }),
  );

  addTool(
    server,
    ctx,
    'set_cookies',
    {
      acts: 'putProfileCookies',
      title: 'Import cookies into a profile',
      description: 'Adds cookies to a profile (replace: drops the others).',
      input: z.object({
        profile_id: Id,
        cookies: CookieImport,
        replace: z.optional(z.boolean()),
      }),
      advertised: z.object({
        profile_id: Id,
        cookies: z.array(
          z
            .object({})
            .check(z.describe('name, value, domain; optional path, expires, secure, http_only, same_site')),
        ),
        replace: z.optional(z.boolean()),
      }),
    },
    async ({ profile_id, cookies, replace }) => {
      const imported = await deps.cookies.write(
        ctx.account,
        profile_id,
        ctx.account.member,
        cookies,
        replace === true,
      );
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
