import pg from 'pg';
import { type Database, type ListenHandlers, type Queryable, StatementNames } from './driver';
import { DatabaseUnreachableError } from './errors';

const INT8_OID = 20;
const RELISTEN_DELAY_MS = 1000;

/**
 * A real PostgreSQL server through a `pg` pool; the same SQL as on PGlite, int8 parsed as a number as there.
 * Statements are named, so each connection of the pool parses and plans one once and then only executes it.
 */
export async function openPostgres(connectionString: string, waitMs = 0): Promise<Database> {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ connectionString, types });
  // An idle connection the server ends (a restart, an operator) is dropped by the pool, and the next query opens
  // another; without a listener its 'error' event would end the process.
  pool.on('error', () => {});
  await firstAnswer(pool, connectionString, waitMs);
  const names = new StatementNames();
  const wrap = (target: Sender): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const name = names.nameOf(sql) ?? undefined;
      const result = await target.query({ name, text: sql, values: [...params] });
      return result.rows as T[];
    },
    async exec(sql: string) {
      await target.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(oneAtATime(client)));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: (channel, handlers) => listenOn(connectionString, channel, handlers),
    close: () => pool.end(),
  };
}

/** What statements are sent through: the pool (a free connection each), or a transaction's one connection. */
interface Sender {
  query(statement: string | pg.QueryConfig): Promise<pg.QueryResult>;
}

/**
 * A transaction's connection, sent its statements one at a time: a caller may send several at once (events emitted
 * side by side), which `pg` only queues for it as a deprecated use that pg@9 refuses.
 */
function oneAtATime(client: pg.PoolClient): Sender {
  let last: Promise<unknown> = Promise.resolve();
  return {
    query(statement) {
      const sent = last.then(() => client.query(statement));
      last = sent.catch(() => {});
      return sent;
    },
  };
}

/** Waits up to `waitMs` for the server to answer (it may be starting beside this process), then gives up. */
async function firstAnswer(pool: pg.Pool, connectionString: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await pool.query('select 1');
      return;
    } catch (error) {
      if (Date.now() >= deadline) {
        await pool.end().catch(() => {});
        throw new DatabaseUnreachableError(
          `The database at ${withoutPassword(connectionString)} did not answer within ${Math.round(waitMs / 1000)} s (${(error as Error).message}); start it, or set DATABASE_URL to one that runs.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RELISTEN_DELAY_MS));
    }
  }
}

function withoutPassword(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    url.password = '';
    url.username = '';
    url.search = '';
    return url.href;
  } catch {
    return 'DATABASE_URL';
  }
}

/** LISTEN on a connection of its own, opened again whenever it is lost. */
async function listenOn(
  connectionString: string,
  channel: string,
  { onNotify, onLost, onRestored }: ListenHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let lost = false;
  let retry: NodeJS.Timeout | undefined;
  const connectLater = () => {
    if (!stopped) retry = setTimeout(() => connect().catch(connectLater), RELISTEN_DELAY_MS);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify(message.payload ?? '');
    });
    next.on('error', () => {});
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = null;
      lost = true;
      onLost?.();
      connectLater();
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    const restored = client === null && lost;
    client = next;
    if (restored) onRestored?.();
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
