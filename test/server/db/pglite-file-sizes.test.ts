import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openPglite } from '../../../server/db/pglite';

it('knows a relation’s size as its file on disk has it, as the relation grows, is truncated and is replaced', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pp-sizes-'));
  const db = await openPglite(dataDir);
  const sizes = async () => {
    const [row] = await db.query<{ size: number; file: string }>(
      `select pg_relation_size('grows')::int as size, pg_relation_filepath('grows') as file`,
    );
    return { asked: row?.size, onDisk: statSync(path.join(dataDir, row?.file ?? '')).size };
  };
  const grow = () => db.query(`insert into grows select i, repeat('x', 200) from generate_series(1, 1000) i`);
  try {
    await db.exec('create table grows (n int, pad text)');
    await grow();
    const first = await sizes();
    expect(first.asked).toBe(first.onDisk);
    // Asked again (kept) and after a write extended the file.
    expect(await sizes()).toEqual(first);
    await grow();
    const second = await sizes();
    expect(second.asked).toBe(second.onDisk);
    expect(second.onDisk).toBeGreaterThan(first.onDisk);
    // VACUUM cuts the empty pages off the end of the file.
    await db.query('delete from grows where n > 10');
    await db.exec('vacuum grows');
    const vacuumed = await sizes();
    expect(vacuumed.asked).toBe(vacuumed.onDisk);
    expect(vacuumed.onDisk).toBeLessThan(second.onDisk);
    // TRUNCATE gives the relation a new, empty file.
    await db.exec('truncate grows');
    expect(await sizes()).toEqual({ asked: 0, onDisk: 0 });
    await grow();
    const regrown = await sizes();
    expect(regrown.asked).toBe(regrown.onDisk);
    expect(await db.query('select count(*)::int as n from grows')).toEqual([{ n: 1000 }]);
  } finally {
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
