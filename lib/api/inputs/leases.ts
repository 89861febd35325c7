import { USAGE_BY } from '../schemas/usage';
import { z } from '../zod';
import { PageQuery } from './queries';

/** Why an owner or admin frees a profile someone holds: the audit keeps it. */
export const ProfileRelease = z.strictObject({
  reason: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(500, 'must be at most 500 characters')),
});

/** The audit log, narrowed to a profile, a member (or key) id, and records from a time on. */
export const AuditQuery = z.object({
  ...PageQuery,
  profile_id: z.optional(z.string().check(z.maxLength(100))),
  member: z.optional(z.string().check(z.maxLength(100))),
  since: z.optional(
    z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time, as 2026-01-31T10:32:00Z' }),
  ),
});

/** GET /v1/usage: the last hour's requests per member (their keys together) or per key. */
export const UsageQuery = z.object({ by: z._default(z.enum(USAGE_BY), 'member') });

export type ProfileRelease = z.infer<typeof ProfileRelease>;
export type AuditQuery = z.infer<typeof AuditQuery>;
