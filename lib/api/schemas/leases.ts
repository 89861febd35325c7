import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

/** A kept saved state of a profile's browser data: the last five are kept, the newest first. */
export const ProfileVersion = z.object({
  /** Counts the profile's saves; `POST /v1/profiles/:id/versions/:version/restore` names it. */
  version: z.number(),
  saved_at: Timestamp,
  /** The saved archive's size (gzipped). */
  bytes: z.number(),
});
export const ProfileVersionList = listOf(ProfileVersion);

/** One act on a profile or the workspace: what, by whom (a member, and the key it used), when. */
export const AuditRecord = z.object({
  id: Id,
  /** `session.start`, `session.stop`, `profile.release`, `profile.restore`, `run`, `cookies.export`, … */
  action: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), key_id: z.nullable(z.string()) }),
  profile_id: z.nullable(z.string()),
  /** What the act was about: a release's `reason`, a restored `version`, a changed role. */
  detail: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});
export const AuditList = listOf(AuditRecord);

export type ProfileVersion = z.infer<typeof ProfileVersion>;
export type AuditRecord = z.infer<typeof AuditRecord>;
