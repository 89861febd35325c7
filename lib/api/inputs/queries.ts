import { PROFILE_SORTS } from '../profile-sorts';
import { RunStatus } from '../schemas/automation';
import { Id } from '../schemas/common';
import { ProfileStatus } from '../schemas/profiles';
import { SessionStatus } from '../schemas/sessions';
import { z } from '../zod';

/* The query strings the service takes: numbers arrive as text and are coerced. Apart from the bodies, so that
   the extension's forms, which check bodies only, do not carry these. */

export function queryInt(min: number, max: number) {
  return z.coerce
    .number()
    .check(
      z.int('must be a whole number'),
      z.minimum(min, `must be at least ${min}`),
      z.maximum(max, `must be at most ${max}`),
    );
}

export const PageQuery = {
  limit: z._default(queryInt(1, 100), 50),
  cursor: z.optional(z.string()),
};

/** A list of profiles in the order of: newest first, name (A to Z), last used first, running first. */
export const ProfileSort = z.enum(PROFILE_SORTS);

export const ProfileTagQuery = z.object(PageQuery);

export const ProfileListQuery = z.object({
  ...PageQuery,
  /**
   * Matches the name, a tag, the notes or the proxy (its name, user@host:port), case insensitive; `#word` only the
   * tags that begin with `word`.
   */
  q: z.optional(z.string().check(z.maxLength(100))),
  sort: z.optional(ProfileSort),
  /** Only profiles with this tag (exactly). */
  tag: z.optional(z.string().check(z.maxLength(50))),
  status: z.optional(ProfileStatus),
  /** `true` adds `total`, the count of every profile the filters match (a count costs what the list does not). */
  total: z.optional(z.enum(['true', 'false'])),
});

/**
 * GET /v1/profiles/export: the list's filter and order (as GET /v1/profiles takes them), as CSV or NDJSON.
 * `passwords=true` writes the proxies' passwords too, so that an import elsewhere can use them.
 */
export const ProfileExportQuery = z.object({
  format: z._default(z.enum(['csv', 'ndjson']), 'csv'),
  q: z.optional(z.string().check(z.maxLength(100))),
  tag: z.optional(z.string().check(z.maxLength(50))),
  status: z.optional(ProfileStatus),
  sort: z.optional(ProfileSort),
  passwords: z.optional(z.enum(['true', 'false'])),
});

export const ProfileDeleteQuery = z.object({
  force: z.optional(z.enum(['true', 'false'])),
});

export const ProxyListQuery = z.object({
  ...PageQuery,
  /** Matches the name or user@host:port, case insensitive. */
  q: z.optional(z.string().check(z.maxLength(100))),
  /** `failing`: only the proxies whose last check failed. */
  status: z.optional(z.enum(['failing'])),
});

export const WebhookListQuery = z.object({ ...PageQuery });

export const SessionListQuery = z.object({ ...PageQuery, status: z.optional(SessionStatus) });

/** GET /v1/help-requests: the open ones, the closed ones, or (without status) all, newest first. */
export const HelpRequestListQuery = z.object({
  ...PageQuery,
  status: z.optional(z.enum(['open', 'closed'])),
});

/**
 * GET /v1/automation/status: with run_id one run, without it a list. `wait` holds the answer until the run
 * changes past `after_version`, or with `until=finished` until it has finished.
 */
export const RunStatusQuery = z.object({
  ...PageQuery,
  run_id: z.optional(Id),
  wait: z.optional(queryInt(0, 25)),
  after_version: z.optional(queryInt(0, Number.MAX_SAFE_INTEGER)),
  until: z.optional(z.enum(['finished'])),
  status: z.optional(z.enum([...RunStatus.options, 'active'])),
  /** Only this profile's runs: its history. */
  profile_id: z.optional(Id),
  /** Only this batch's runs, each profile's latest (a retried one's earlier run is not listed). */
  batch_id: z.optional(Id),
});

/** GET /v1/automation/batches/:id/export: the outputs as CSV (a spreadsheet opens it) or JSON. */
/** GET /v1/automation/batches: newest first, a page at a time. */
export const BatchListQuery = z.object({ ...PageQuery });

export const BatchExportQuery = z.object({ format: z._default(z.enum(['csv', 'json']), 'csv') });

export type ProfileListQuery = z.input<typeof ProfileListQuery>;
export type ProxyListQuery = z.input<typeof ProxyListQuery>;
export type SessionListQuery = z.input<typeof SessionListQuery>;
export type RunStatusQuery = z.input<typeof RunStatusQuery>;
