import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AgentProfileCreate, AgentProfileUpdate } from '../../lib/api/inputs/profiles';
import { ProfileListQuery } from '../../lib/api/inputs/queries';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { readCursor } from '../http/validate';
import { requireInScope } from '../profiles/in-scope';
import { profileOf } from '../profiles/profile-of';
import { createOwnProfile, deleteOwnProfile, updateOwnProfile } from '../profiles/profile-operations';
import { countProfiles, listProfiles } from '../store/profiles';
import { Detail, linesAnswer, profileLine } from './compact';
import { addTool, type ToolContext } from './tool-kit';

/** The profile tools: the same functions as /v1/profiles, for the caller's account only. */
export function addProfileTools(server: McpServer, ctx: ToolContext): void {
  const accountId = ctx.account.id;
  const { deps } = ctx;

  addTool(
    server,
    ctx,
    'list_profiles',
    {
      acts: 'listProfiles',
      title: 'List browser profiles',
      description: 'One line per profile; filter by q, tag or status.',
      input: z.extend(z.omit(ProfileListQuery, { total: true }), { detail: Detail }),
      annotations: { readOnlyHint: true },
    },
    async ({ detail, ...query }) => {
      const filter = { q: query.q, tag: query.tag, status: query.status };
      const [page, total] = await Promise.all([
        listProfiles(deps.db, ctx.account, {
          limit: query.limit,
          after: readCursor(query.cursor),
          ...filter,
        }),
        countProfiles(deps.db, ctx.account, filter),
      ]);
      if (detail) return { structured: { ...page, total } };
      return linesAnswer('profiles', page, profileLine, total);
    },
  );

  addTool(
    server,
    ctx,
    'get_profile',
    {
      acts: 'getProfile',
      title: 'Read a browser profile',
      description: 'One profile in full, with its identity.',
      input: z.object({ profile_id: Id }),
      annotations: { readOnlyHint: true },
    },
    async ({ profile_id }) => {
      const profile = await profileOf(deps.db, ctx.account, profile_id);
      return { structured: profile };
    },
  );

  addTool(
    server,
    ctx,
    'create_profile',
    {
      acts: 'createProfile',
      title: 'Create a browser profile',
      description: 'A new profile: its own cookies, identity and proxy.',
      input: AgentProfileCreate,
      advertised: z.object({
        ...AgentProfileCreate.shape,
        fingerprint: z.optional(
          z.object({}).check(z.describe('user_agent, language, timezone, screen {width, height}')),
        ),
      }),
    },
    async (body) => {
      const profile = await deps.events.writeWithEvents((tx, emit) =>
        createOwnProfile(tx, emit, deps.clock, accountId, body),
      );
      return { structured: { id: profile.id, name: profile.name } };
    },
  );

  addTool(
    server,
    ctx,
    'update_profile',
    {
      acts: 'updateProfile',
      title: 'Change a browser profile',
      description: 'Changes the given fields (a running session’s on restart).',
      input: z.object({ profile_id: Id, changes: AgentProfileUpdate }),
      advertised: z.object({
        profile_id: Id,
        changes: z
          .object({ new_identity: z.optional(z.boolean()) })
          .check(z.describe('Any create_profile fields; new_identity: a fresh one.')),
      }),
    },
    async ({ profile_id, changes }) => {
      await requireInScope(deps.db, ctx.account, profile_id);
      const profile = await updateOwnProfile(deps, accountId, profile_id, changes);
      return {
        structured: {
          id: profile.id,
          changed: Object.keys(changes),
          applies_at_next_start: profile.applies_at_next_start,
        },
      };
    },
  );

  addTool(
    server,
    ctx,
    'delete_profile',
    {
      acts: 'deleteProfile',
      title: 'Delete a browser profile',
      description: 'Deletes a profile and its data (a running one: force).',
      input: z.object({
        profile_id: Id,
        force: z.optional(z.boolean()),
      }),
    },
    async ({ profile_id, force }) => {
      const { db, events, sessions, config, log } = deps;
      const parts = { db, events, sessions, dataDir: config.dataDir, log };
      await deleteOwnProfile(parts, ctx.account, profile_id, force === true);
      return { structured: { deleted: profile_id } };
    },
  );
}
