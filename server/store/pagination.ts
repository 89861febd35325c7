/** A page of a list, newest first: `data` and the cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

const CURSOR_PREFIX = 'seq:';

/** Opaque to clients: the list position (a row's `seq`) base64url-encoded. */
export function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const seq = Number(text.slice(CURSOR_PREFIX.length));
  return Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

/** Turns `limit + 1` rows fetched in list order into a page: the extra row only says that there is more. */
export function toPage<R extends { seq: number }, T>(
  rows: R[],
  limit: number,
  toItem: (row: R) => T,
): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map(toItem),
    next_cursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
  };
}
