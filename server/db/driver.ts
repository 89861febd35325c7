/** Anything that runs SQL in PostgreSQL's dialect with `$1` parameters: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside, use only
   * `tx`: on PGlite (one connection) a query on the database itself would wait for the transaction to end.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Listens to NOTIFY on `channel` until the function it resolves to is called. */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  /** The payload of each NOTIFY on the channel. */
  onNotify(payload: string): void;
  /** The listening connection was lost: notifications are missed until `onRestored`. */
  onLost?(): void;
  /** Listening again after a loss (it reconnects by itself). */
  onRestored?(): void;
}

/**
 * Names for prepared statements, one per distinct SQL text, up to a bound: SQL texts are constants of the code,
 * so the bound is only a guard against a statement built with varying text, which then runs unprepared.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = 500) {}

  nameOf(sql: string): string | null {
    const known = this.names.get(sql);
    if (known !== undefined) return known;
    if (this.names.size >= this.limit) return null;
    const name = `pp_${this.names.size + 1}`;
    this.names.set(sql, name);
    return name;
  }
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
