import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { type Page, toPage } from './pagination';
import { idInScope, type Reader, scopeOfProfile } from './scope';
import { sessionIsLive } from './sessions';

interface HelpRequestRow {
  seq: number;
  id: string;
  account_id: string;
  session_id: string;
  profile_id: string;
  profile_name: string | null;
  tab_id: string;
  run_id: string | null;
  reason: string;
  question: string | null;
  choices: string[];
  status: HelpRequest['status'];
  outcome: HelpRequest['outcome'];
  answer_text: string | null;
  choice: string | null;
  created_at: Date;
  expires_at: Date;
  answered_at: Date | null;
  taken_by_id: string | null;
  taken_by_name: string | null;
}

// The profile's name now, by its primary key (as sessions read it); the table is named unaliased for it.
const COLUMNS = `seq, id, account_id, session_id, profile_id, tab_id, run_id, reason, question, choices, status,
  outcome, answer_text, choice, created_at, expires_at, answered_at, taken_by_id, taken_by_name,
  (select profile.name from profiles profile where profile.id = help_requests.profile_id) as profile_name`;

/** A request as the API answers it, with the account it belongs to for whoever reports it. */
export interface StoredHelpRequest {
  accountId: string;
  request: HelpRequest;
}

function toStored(row: HelpRequestRow): StoredHelpRequest {
  return {
    accountId: row.account_id,
    request: {
      id: row.id,
      session_id: row.session_id,
      profile_id: row.profile_id,
      profile_name: row.profile_name ?? '',
      tab_id: row.tab_id,
      run_id: row.run_id,
      reason: row.reason,
      question: row.question,
      choices: row.choices,
      status: row.status,
      outcome: row.outcome,
      text: row.answer_text,
      choice: row.choice,
      created_at: row.created_at.toISOString(),
      expires_at: row.expires_at.toISOString(),
      answered_at: row.answered_at?.toISOString() ?? null,
      taken_by: row.taken_by_id ? { id: row.taken_by_id, name: row.taken_by_name ?? '' } : null,
    },
  };
}

export interface NewHelpRequest {
  accountId: string;
  sessionId: string;
  profileId: string;
  tabId: string;
  runId: string | null;
  reason: string;
  question: string | null;
  choices: string[];
  createdAt: Date;
  expiresAt: Date;
}

/** Stores an open request; null when the tab already has one open (the one-per-tab index refused it). */
export async function insertHelpRequest(tx: Queryable, fields: NewHelpRequest): Promise<HelpRequest | null> {
  const rows = await tx.query<HelpRequestRow>(
    `insert into help_requests (id, account_id, session_id, profile_id, tab_id, run_id, reason, question, choices,
       status, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10, $11)
     on conflict (session_id, tab_id) where status = 'open' do nothing
     returning ${COLUMNS}`,
    [
      newId('hlp'),
      fields.accountId,
      fields.sessionId,
      fields.profileId,
      fields.tabId,
      fields.runId,
      fields.reason,
      fields.question,
      fields.choices,
      fields.createdAt,
      fields.expiresAt,
    ],
  );
  return rows[0] ? toStored(rows[0]).request : null;
}

/** The account's help request, when its profile is within the reader's scope. */
export async function findHelpRequest(
  db: Queryable,
  reader: Reader,
  id: string,
): Promise<HelpRequest | null> {
  const { where, params } = idInScope(reader, 'help_requests', id);
  const [row] = await db.query<HelpRequestRow>(`select ${COLUMNS} from help_requests where ${where}`, params);
  return row ? toStored(row).request : null;
}

/** The session's newest open request (what its live view shows), or, given `tabId`, its tab's (it has one at most). */
export async function findOpenRequest(
  db: Queryable,
  sessionId: string,
  tabId?: string,
): Promise<StoredHelpRequest | null> {
  const [row] = await db.query<HelpRequestRow>(
    `select ${COLUMNS} from help_requests where session_id = $1 and status = 'open' and ($2::text is null or tab_id = $2)
      order by seq desc limit 1`,
    [sessionId, tabId ?? null],
  );
  return row ? toStored(row) : null;
}

export async function listHelpRequests(
  db: Queryable,
  reader: Reader,
  options: { status?: HelpRequest['status']; limit: number; after: number | null },
): Promise<Page<HelpRequest>> {
  // Written out rather than bound, so that the open list reads its partial index.
  const status = options.status === undefined ? '' : `and status = '${options.status}'`;
  const params: unknown[] = [reader.id, options.after, options.limit + 1];
  const scope = scopeOfProfile(reader, params, 'help_requests.profile_id').map(
    (condition) => ` and ${condition}`,
  );
  const rows = await db.query<HelpRequestRow>(
    `select ${COLUMNS} from help_requests
      where account_id = $1 ${status} and ($2::bigint is null or seq < $2)${scope.join('')}
      order by seq desc limit $3`,
    params,
  );
  return toPage(rows, options.limit, (row) => toStored(row).request);
}

/**
 * Closes an open request with the person's answer, unless it is closed already or expired: then null. Only one
 * answer wins, on any process (the row is locked by the update; a second sees it closed).
 */
export async function answerOpenRequest(
  tx: Queryable,
  accountId: string,
  id: string,
  answer: HelpAnswer,
  now: Date,
): Promise<HelpRequest | null> {
  const [row] = await tx.query<HelpRequestRow>(
    `update help_requests set status = 'closed', outcome = $3, answer_text = $4, choice = $5, answered_at = $6
      where account_id = $1 and id = $2 and status = 'open' and expires_at > $6
      returning ${COLUMNS}`,
    [accountId, id, answer.outcome, answer.text ?? null, answer.choice ?? null, now],
  );
  return row ? toStored(row).request : null;
}

/** Closes the open requests whose time is up (all of them, or `id` only) as timed out; what it closed. */
export async function expireDueRequests(
  tx: Queryable,
  now: Date,
  only?: { sessionId: string; tabId: string } | { id: string },
): Promise<StoredHelpRequest[]> {
  const where =
    only === undefined ? '' : 'id' in only ? 'and id = $2' : 'and session_id = $2 and tab_id = $3';
  const narrowed = only === undefined ? [] : 'id' in only ? [only.id] : [only.sessionId, only.tabId];
  const rows = await tx.query<HelpRequestRow>(
    `update help_requests set status = 'closed', outcome = 'timed_out', answered_at = expires_at
      where status = 'open' and expires_at <= $1 ${where}
      returning ${COLUMNS}`,
    [now, ...narrowed],
  );
  return rows.map(toStored);
}

/** Closes the open requests whose session is no longer live as withdrawn (nobody can answer in its tab); what it closed. */
export async function withdrawRequestsOfEndedSessions(
  tx: Queryable,
  now: Date,
): Promise<StoredHelpRequest[]> {
  const rows = await tx.query<HelpRequestRow>(
    `update help_requests set status = 'closed', outcome = 'withdrawn', answered_at = $1
      where status = 'open'
        and not exists (select 1 from sessions where sessions.id = help_requests.session_id and ${sessionIsLive('sessions.status')})
      returning ${COLUMNS}`,
    [now],
  );
  return rows.map(toStored);
}

/** Closes the open request of a tab that closed as withdrawn (nobody can answer in it); what it closed. */
export async function withdrawRequestsOfTab(
  tx: Queryable,
  now: Date,
  tab: { sessionId: string; tabId: string },
): Promise<StoredHelpRequest[]> {
  const rows = await tx.query<HelpRequestRow>(
    `update help_requests set status = 'closed', outcome = 'withdrawn', answered_at = $1
      where status = 'open' and session_id = $2 and tab_id = $3
      returning ${COLUMNS}`,
    [now, tab.sessionId, tab.tabId],
  );
  return rows.map(toStored);
}

/** How many requests of the account are open. */
export async function countOpenRequests(tx: Queryable, accountId: string): Promise<number> {
  const [row] = await tx.query<{ open: number }>(
    `select count(*)::int as open from help_requests where account_id = $1 and status = 'open'`,
    [accountId],
  );
  return row?.open ?? 0;
}

/** Deletes closed requests answered before `before`. */
export async function pruneClosedRequests(db: Queryable, before: Date): Promise<void> {
  await db.query(`delete from help_requests where status = 'closed' and answered_at < $1`, [before]);
}
