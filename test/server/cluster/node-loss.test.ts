import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../lib/api/schemas/sessions';
import { eventually } from '../../e2e/support/wait';
import {
  createDataDir,
  JSON_HEADERS,
  requester,
  type ServiceHandle,
  startService,
} from '../../support/harness';
import { postgresForTests, startPostgres } from '../../support/postgres-server';

/*
 * No browser outlives its session, its node or the service: real service processes on one PostgreSQL are stalled
 * (SIGSTOP), killed (-9) and restarted, and the Chromium processes they started are counted after each.
 */

const bin = postgresForTests();

/** Each browser leads a process group with its helpers: the groups of the browsers started on `dataDir`. */
function browserGroups(dataDir: string, into: Set<number>): Set<number> {
  for (const pid of pids())
    if (commandLine(pid).some((arg) => arg.startsWith(`--user-data-dir=${dataDir}/`))) into.add(groupOf(pid));
  return into;
}

/** Chromium processes (browsers and helpers) still alive in those groups. */
function chromiumIn(groups: Set<number>): number {
  return pids().filter((pid) => groups.has(groupOf(pid)) && /chrom/.test(commandLine(pid)[0] ?? '')).length;
}

const pids = () =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};
const commandLine = (pid: number) => read(pid, 'cmdline').split('\0');
const groupOf = (pid: number) => Number(read(pid, 'stat').split(') ')[1]?.split(' ')[2] ?? -1);

describe.skipIf(!bin)('browsers and the loss of their node', () => {
  it('a node found lost ends its browsers; a stop, a kill and a restart leave none', async () => {
    const postgres = await startPostgres(bin as string);
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    const env = { DATABASE_URL: postgres.url, MAX_BROWSERS: '2', HEADLESS: 'true', NODE_LOST_AFTER: '6' };
    const dataDir = await createDataDir();
    const started: ServiceHandle[] = [];
    const groups = new Set<number>();
    const status = async (id: string) =>
      (await db.query('select status, stop_reason from sessions where id = $1', [id])).rows[0];
    try {
      const a = await startService({ env, dataDir });
      started.push(a);
      const key = await a.createKey('enterprise');
      const start = async (node: ServiceHandle, name: string): Promise<Session> => {
        const send = requester(node.baseUrl, key);
        const profile = await (
          await send('POST', '/v1/profiles', { headers: JSON_HEADERS, body: JSON.stringify({ name }) })
        ).json();
        const response = await send('POST', '/v1/sessions/start', {
          headers: JSON_HEADERS,
          body: JSON.stringify({ profile_id: profile.id, headless: true }),
        });
        expect(response.status).toBe(201);
        browserGroups(node.dataDir, groups);
        return response.json();
      };

      const first = await start(a, 'first');

      // A stall past NODE_LOST_AFTER is a loss to the other node: it stops the session as lost, and the stalled node,
      // once it runs again, ends its browser.
      const b = await startService({ env });
      started.push(b);
      process.kill(a.pid, 'SIGSTOP');
      await eventually(
        'the stalled node’s session to be stopped as lost',
        async () => ((await status(first.id)).stop_reason === 'node_lost' ? true : undefined),
        40_000,
      );
      expect(chromiumIn(groups)).toBeGreaterThan(0);
      process.kill(a.pid, 'SIGCONT');
      await eventually('the lost session’s browser to end', async () =>
        chromiumIn(groups) === 0 ? true : undefined,
      );

      // Stopping a session recorded as lost ends its browser on the node that still runs it, asked through another.
      const second = await start(b, 'second');
      await db.query(`update sessions set status = 'stopped', stop_reason = 'node_lost' where id = $1`, [
        second.id,
      ]);
      const stopped = await requester(a.baseUrl, key)('DELETE', `/v1/sessions/stop?session_id=${second.id}`);
      expect(stopped.status).toBe(200);
      expect(chromiumIn(groups)).toBe(0);

      // A node killed with -9 leaves no browser, nor does one restarted on its data dir and then stopped.
      await start(a, 'third');
      await a.kill();
      await eventually('the killed node’s browser to end', async () =>
        chromiumIn(groups) === 0 ? true : undefined,
      );
      const again = await startService({ env, dataDir });
      started.push(again);
      await start(again, 'fourth');
      expect(await again.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
      expect(chromiumIn(groups)).toBe(0);
    } finally {
      await Promise.all(started.map((node) => node.close()));
      await db.end();
      await postgres.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
