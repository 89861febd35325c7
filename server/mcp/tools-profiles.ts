import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProfileCreate, ProfileUpdate } from '../../lib/api/inputs/profiles';
import { ProfileListQuery } from '../../lib/api/inputs/queries';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { readCursor } from '../http/validate';
import { createOwnProfile, deleteOwnProfile, updateOwnProfile } from '../profiles/profile-operations';
import { listProfiles } from '../store/profiles';
import { addTool, type ToolContext } from './tool-kit';

const ProfileId = Id.check(z.describe('The profile, as list_profiles or create_profile gave it (prf_…).'));

/** The profile tools: the same functions as /v1/profiles, for the caller's account only. */
export function addProfileTools(server: McpServer, ctx: ToolContext): void {
  const accountId = ctx.account.id;
  const { deps } = ctx;

  addTool(
    server,
    ctx,
    'list_profiles',
    {
      title: 'List browser profiles',
      description:
        'Lists your browser profiles (each a separate browser identity: cookies, fingerprint, proxy), newest first, ' +
        '50 a page. Filter with q (name or tag contains), tag (exact) or status. Use it to find the profile_id ' +
        'for start_session or run_script. Cost: one request of your hourly limit.',
      input: z.omit(ProfileListQuery, { total: true }),
      annotations: { readOnlyHint: true },
    },
    async (query) => {
      const page = await listProfiles(deps.db, accountId, {
        limit: query.limit,
        after: readCursor(query.cursor),
        q: query.q,
        tag: query.tag,
        status: query.status,
      });
      return { structured: { ...page } };
    },
  );

  addTool(
    server,
    ctx,
    'create_profile',
    {
      title: 'Create a browser profile',
      description:
        'Creates a browser profile: a name, optionally tags, notes, a proxy (scheme://user:pass@host:port, or ' +
        'proxy_id of a saved proxy) and a fingerprint. Answers the profile with its id. Create one before ' +
        'start_session when no existing profile fits. Cost: one request.',
      input: ProfileCreate,
    },
    async (body) => {
      const profile = await deps.events.writeWithEvents((tx, emit) =>
        createOwnProfile(tx, emit, deps.clock, accountId, body),
      );
      return { structured: profile };
    },
  );

  addTool(
    server,
    ctx,
    'update_profile',
    {
      title: 'Change a browser profile',
      description:
        'Changes the given fields of a profile (name, tags, notes, proxy, proxy_id, fingerprint); the others ' +
        'stay. A running session keeps the settings it started with (applies_at_next_start). Cost: one request.',
      input: z.object({ profile_id: ProfileId, changes: ProfileUpdate }),
    },
    async ({ profile_id, changes }) => ({
      structured: await updateOwnProfile(deps, accountId, profile_id, changes),
    }),
  );

  addTool(
    server,
    ctx,
    'delete_profile',
    {
      title: 'Delete a browser profile',
      description:
        'Deletes a profile and its browser data (cookies, history, storage) for good. A profile with a running ' +
        'session is refused unless force is true, which stops the session first. Cost: one request; cannot be undone.',
      input: z.object({
        profile_id: ProfileId,
        force: z.optional(z.boolean().check(z.describe('Stop its running session first.'))),
      }),
      annotations: { destructiveHint: true },
    },
    async ({ profile_id, force }) => {
      const { db, events, sessions, config, log } = deps;
      const parts = { db, events, sessions, dataDir: config.dataDir, log };
      await deleteOwnProfile(parts, accountId, profile_id, force === true);
      return { structured: { deleted: profile_id } };
    },
  );
}
