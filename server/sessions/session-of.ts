import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import type { Reader } from '../store/scope';
import { findSession, type SessionRow } from '../store/sessions';

/** The reader's session of this id; another account's, or one outside the reader's scope, is not found. */
export async function sessionOf(db: Queryable, reader: Reader, id: string): Promise<SessionRow> {
  const row = await findSession(db, reader, id);
  if (!row) throw new NotFound('session');
  return row;
}
