import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { concatBytes, type Database, type Queryable, StatementNames } from './driver';
import { type EmscriptenNodeFsFiles, keepFileSizes } from './pglite-file-sizes';
import { type DeferredFsync, deferredFsync } from './pglite-fsync';

interface Prepared {
  name: string;
  parameterTypes: number[];
}

/**
 * PGlite runs PostgreSQL in this process on one connection; its own mutexes serialize queries, and
 * `transaction()` holds one for the whole transaction, so transactions never interleave.
 *
 * Statements are prepared once under a name and then only bound and executed: PGlite's own `query()` parses,
 * plans and describes every statement afresh in four calls into PostgreSQL, which was half the cost of a request.
 *
 * Durability: PostgreSQL runs with fsync on, and PGlite's Node file layer (Emscripten's NODEFS), which has no
 * fsync of its own, is given one that calls the OS's (pglite-fsync.ts: a WAL sync runs off this thread, and a
 * call waits for it before it resolves): a commit is on disk before it is answered, as with a PostgreSQL server
 * (see test/server/db/durability.test.ts). A transaction that commits without waiting
 * (synchronous_commit off, as the hourly request counts do) is on disk within WAL_FLUSH_DELAY_MS: PGlite has no
 * WAL writer, so without the flush below such commits would wait for the next one that does wait.
 */
export async function openPglite(
  directory: string,
  { fsync }: { fsync?: (fd: number) => Promise<void> } = {},
): Promise<Database> {
  const pg = await PGlite.create(directory, {
    relaxedDurability: false,
    extensions: { pg_trgm },
    // PGlite's default start parameters without -F (fsync off).
    startParams: [
      '--single',
      '-O',
      '-j',
      '-c',
      'search_path=public',
      '-c',
      'exit_on_error=false',
      '-c',
      'log_checkpoints=false',
      '-c',
      'max_worker_processes=0',
      '-c',
      'max_parallel_workers=0',
      '-c',
      'max_parallel_workers_per_gather=0',
      '-c',
      'io_method=sync',
      // PGlite's fdatasync is a no-op; its fsync reaches the one given below.
      '-c',
      'wal_sync_method=fsync',
      '-c',
      'max_parallel_maintenance_workers=0',
    ],
  });
  const fsyncs = deferredFsync(fsync);
  const nodefs = nodeFsOf(pg);
  giveNodeFsAnFsync(nodefs, fsyncs);
  keepFileSizes(nodefs);
  /**
   * Runs `work` and answers once the WAL syncs it started are done. `started()` marks the moment it has the
   * connection: a read queued behind a commit does not wait for that commit's sync.
   */
  const durably = async <T>(work: (started: () => void) => Promise<T>): Promise<T> => {
    let mark = fsyncs.mark();
    const result = await work(() => {
      mark = fsyncs.mark();
    });
    await fsyncs.syncedSince(mark);
    return result;
  };
  // PGlite's own query() waits for an open transaction to end: the flush never becomes part of one.
  const walFlusher = setInterval(() => flushWal(pg).catch(() => {}), WAL_FLUSH_DELAY_MS).unref();
  const names = new StatementNames();
  const prepared = new Map<string, Prepared>();

  const prepare = async (sql: string, name: string): Promise<Prepared> => {
    const messages = await pg.execProtocolStream(
      concatBytes(
        protocol.serialize.parse({ name, text: sql, types: [] }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ),
    );
    const parameterTypes = parse.parseDescribeStatementResults(messages);
    const statement = { name, parameterTypes };
    prepared.set(sql, statement);
    return statement;
  };

  /** Runs `sql` as a named statement; the caller holds PGlite's query mutex. */
  const runPrepared = async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
    const name = names.nameOf(sql);
    if (name === null) return (await pg.query<T>(sql, [...params])).rows;
    const statement = prepared.get(sql) ?? (await prepare(sql, name));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serialize = pg.serializers[statement.parameterTypes[index] ?? 0];
      return serialize ? serialize(value) : String(value);
    });
    const messages = await pg.execProtocolStream(
      concatBytes(
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ),
    );
    return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as T[];
  };

  const inTransaction = (tx: { exec(sql: string): Promise<unknown> }): Queryable => ({
    query: (sql, params = []) => pg._runExclusiveQuery(() => runPrepared(sql, params)),
    async exec(sql) {
      await tx.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    // Outside a transaction a query waits for any open one to end, as PGlite's own query() does.
    query: (sql, params = []) =>
      durably((started) =>
        pg._runExclusiveTransaction(() =>
          pg._runExclusiveQuery(() => {
            started();
            return runPrepared(sql, params);
          }),
        ),
      ),
    async exec(sql) {
      await durably(() => pg.exec(sql));
    },
    transaction: (fn) =>
      durably((started) =>
        pg.transaction((tx) => {
          started();
          return fn(inTransaction(tx));
        }),
      ),
    // One process holds an embedded database: every NOTIFY is this process's own, and none can be missed.
    async listen(channel, { onNotify }) {
      const unlisten = await pg.listen(channel, onNotify);
      return () => unlisten();
    },
    async close() {
      clearInterval(walFlusher);
      await durably(() => pg.close());
    },
  };
}

/** As long as a PostgreSQL server's WAL writer waits at most (its wal_writer_delay) before flushing such commits. */
const WAL_FLUSH_DELAY_MS = 200;

/** Writes and syncs the WAL that commits without waiting left behind, if any. */
async function flushWal(pg: PGlite): Promise<void> {
  const { rows } = await pg.query<{ behind: boolean }>(
    'select pg_current_wal_insert_lsn() > pg_current_wal_flush_lsn() as behind',
  );
  // A message written with flush (PostgreSQL 17) syncs the WAL up to itself, so everything before it.
  if (rows[0]?.behind) await pg.query(`select pg_logical_emit_message(false, 'wal_flush', '', true)`);
}

/** The Emscripten file system PGlite keeps the database's files in, whose operations are adapted here. */
function nodeFsOf(pg: PGlite): EmscriptenNodeFs {
  const { NODEFS } = (pg as unknown as { Module: { NODEFS?: EmscriptenNodeFs } }).Module;
  if (!NODEFS?.stream_ops || !NODEFS.node_ops) throw new Error('PGlite no longer mounts NODEFS');
  return NODEFS;
}

/** Emscripten's NODEFS writes through to the OS but answers fsync with success without calling it. */
function giveNodeFsAnFsync(nodefs: EmscriptenNodeFs, fsyncs: DeferredFsync): void {
  nodefs.stream_ops.fsync = (stream) => {
    fsyncs.fsync(stream.nfd);
    return 0;
  };
}

interface EmscriptenNodeFs extends EmscriptenNodeFsFiles {
  stream_ops: EmscriptenNodeFsFiles['stream_ops'] & { fsync?: (stream: { nfd: number }) => number };
}
