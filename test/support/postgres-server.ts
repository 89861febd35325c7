import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export interface PostgresServer {
  url: string;
  /** The postmaster's pid: its children are the server's other processes. */
  pid(): number;
  stop(): Promise<void>;
}

/** The bin folder of an installed PostgreSQL (Debian's /usr/lib/postgresql/<n>/bin), or null. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  const bin = versions
    .map((version) => path.join(root, version, 'bin'))
    .find((dir) => existsSync(path.join(dir, 'initdb')));
  return bin ?? null;
}

/**
 * The PostgreSQL the tests run on; null (said out loud) only outside CI: in CI (`CI=true`) a missing PostgreSQL
 * fails the run instead of skipping its tests.
 */
export function postgresForTests(): string | null {
  const bin = findPostgresBin();
  if (bin) return bin;
  const missing = 'PostgreSQL is not installed (apt-get install postgresql): the tests on PostgreSQL';
  if (process.env.CI === 'true') throw new Error(`${missing} cannot run, and CI requires them.`);
  console.warn(`${missing} are skipped.`);
  return null;
}

/**
 * A throwaway PostgreSQL server in a temp dir on a free loopback port, trust auth. PostgreSQL refuses to run
 * as root, so as root it runs as the `postgres` user. Unless `durable`, nothing it writes waits for the disk
 * (initdb --no-sync, fsync off): what a test writes need not outlive the machine, only a process's death, which
 * the OS's page cache covers. Benchmarks ask for `durable`, as a deployment runs.
 */
export async function startPostgres(
  bin: string,
  {
    settings = {},
    durable = false,
  }: {
    /** Server settings, as `-c name=value` (e.g. a preloaded extension for a benchmark). */
    settings?: Record<string, string>;
    durable?: boolean;
  } = {},
): Promise<PostgresServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pp-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    await chown(dir, uid, gid);
  }
  const run = (command: string, args: string[]) =>
    asRoot ? (['runuser', ['-u', 'postgres', '--', command, ...args]] as const) : ([command, args] as const);
  const dataDir = path.join(dir, 'data');
  const [initCommand, initArgs] = run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '--auth=trust',
    '-U',
    'postgres',
    ...(durable ? [] : ['--no-sync']),
  ]);
  execFileSync(initCommand, [...initArgs], { stdio: 'ignore' });
  const serverSettings = { fsync: durable ? 'on' : 'off', ...settings };
  const { server, url } = await listening(run, bin, dataDir, dir, serverSettings);
  const pid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url,
    pid,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // SIGINT is PostgreSQL's fast shutdown. Sent to the postmaster itself: runuser does not pass it on.
        process.kill(pid(), 'SIGINT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL on a free port, tried again on another where it could not listen: the port is only known free when it
 * is picked. Ready means this server answers, not another one that holds the port.
 */
async function listening(
  run: (command: string, args: string[]) => readonly [string, readonly string[]],
  bin: string,
  dataDir: string,
  socketDir: string,
  settings: Record<string, string>,
): Promise<{ server: ChildProcess; url: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const [command, args] = run(path.join(bin, 'postgres'), [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-k',
      socketDir,
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ]);
    const server: ChildProcess = spawn(command, [...args], { stdio: 'ignore' });
    const exited = once(server, 'exit').then(() => null);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const answering = await Promise.race([dataDirectoryAt(url, exited), exited]);
    if (answering === dataDir) return { server, url };
    if (server.exitCode === null) {
      server.kill('SIGKILL');
      await exited;
    }
    if (attempt === 3)
      throw new Error(`PostgreSQL did not listen on 3 free ports; the last, ${port}, answered ${answering}`);
  }
}

/** The data directory of the PostgreSQL that answers at `url`, once one does, or null once `givenUp` settles. */
async function dataDirectoryAt(url: string, givenUp: Promise<null>): Promise<string | null> {
  let over = false;
  void givenUp.then(() => {
    over = true;
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const { rows } = await client.query<{ data_directory: string }>('show data_directory');
      await client.end();
      return rows[0]?.data_directory ?? null;
    } catch (error) {
      await client.end().catch(() => {});
      if (over) return null;
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
