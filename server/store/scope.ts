import type { Scope } from '../../lib/api/roles';

/**
 * Whose rows a request reads, and through which scope: the account (the workspace), and the tags a scoped member
 * or key is limited to (null: every profile). A key's actor is one (`c.get('account')`); the service's own work
 * reads with `everything(accountId)`.
 */
export interface Reader {
  id: string;
  scope: Scope | null;
}

/** The whole account, for the service's own work (runs, recovery, deletion), never for a member's request. */
export const everything = (accountId: string): Reader => ({ id: accountId, scope: null });

/**
 * The condition that keeps a profile whose tags are in `tags` (a jsonb column) within the reader's scope, with its
 * parameter added to `params`; none for an unscoped reader, so that its statements are as they were.
 */
export function scopeOfTags(reader: Reader, params: unknown[], tags = 'p.tags'): string[] {
  if (!reader.scope) return [];
  params.push(reader.scope.tags);
  return [`${tags} ?| $${params.length}::text[]`];
}

/**
 * The condition that keeps a batch (`batchId`, a column) within the reader's scope: every profile it runs on is in
 * scope, so that its counts and outputs tell nothing of a profile outside it.
 */
export function scopeOfBatch(reader: Reader, params: unknown[], batchId: string): string[] {
  if (!reader.scope) return [];
  params.push(reader.scope.tags);
  return [
    `not exists (select from automation_runs sr join profiles sp on sp.id = sr.profile_id
      where sr.batch_id = ${batchId} and not sp.tags ?| $${params.length}::text[])`,
  ];
}

/** The same for a row that names its profile in `profileId` (a session's, a run's): its profile is in scope. */
export function scopeOfProfile(reader: Reader, params: unknown[], profileId: string): string[] {
  if (!reader.scope) return [];
  params.push(reader.scope.tags);
  return [
    `exists (select from profiles sp where sp.id = ${profileId} and sp.tags ?| $${params.length}::text[])`,
  ];
}

/** The condition, with its parameters, that picks the account's row `id` of `table` when its profile is in scope. */
export function idInScope(reader: Reader, table: string, id: string): { where: string; params: unknown[] } {
  const params: unknown[] = [reader.id, id];
  const where = ['account_id = $1 and id = $2', ...scopeOfProfile(reader, params, `${table}.profile_id`)];
  return { where: where.join(' and '), params };
}
