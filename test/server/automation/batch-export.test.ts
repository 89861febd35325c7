/**
 * A batch's export is written as the client reads it, a page of runs at a time: the first bytes go out before the
 * later runs are read, and the file whole is the batch's runs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportBatch } from '../../../server/automation/batch-export';
import { systemClock } from '../../../server/core/clock';
import type { Database } from '../../../server/db/driver';
import { insertBatch } from '../../../server/store/batches';
import { everything } from '../../../server/store/scope';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

const RUNS = 7;
let scratch: ScratchDatabase;
let batchId: string;

beforeAll(async () => {
  scratch = await openScratchDatabase('batch-export');
  const { db } = scratch;
  await db.query(
    `insert into accounts (id, name, plan, created_at) values ('acc_export', 'x', 'free', now())`,
  );
  batchId = await insertBatch(db, systemClock, 'acc_export', 'Big');
  for (let n = 0; n < RUNS; n++)
    await db.query(
      `insert into automation_runs (id, account_id, profile_id, status, script, steps, output, created_at, batch_id)
       values ($1, 'acc_export', $2, 'succeeded', '{}', '[]', $3::jsonb, now(), $4)`,
      [`run_${n}`, `pro_${n}`, JSON.stringify({ [`field_${n % 2}`]: 'x'.repeat(1000) }), batchId],
    );
});

afterAll(() => scratch?.close());

/** The database, counting the pages of runs read from it. */
function counting(db: Database): { db: Database; pages: () => number } {
  let pages = 0;
  const counted = Object.create(db) as Database;
  counted.query = (sql, params) => {
    if (sql.includes('order by seq limit')) pages += 1;
    return db.query(sql, params);
  };
  return { db: counted, pages: () => pages };
}

it.each(['csv', 'json'] as const)('streams a %s export a page of runs at a time', async (format) => {
  const { db, pages } = counting(scratch.db);
  const file = await exportBatch(db, everything('acc_export'), batchId, format, 2);
  const reader = file.body.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value);
  expect(pages()).toBeLessThanOrEqual(1);
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
    text += decoder.decode(chunk.value);
  expect(pages()).toBe(Math.ceil((RUNS + 1) / 2));
  if (format === 'json') {
    const rows = JSON.parse(text);
    expect(rows.map((row: { run_id: string }) => row.run_id)).toEqual(
      [...Array(RUNS).keys()].map((n) => `run_${n}`),
    );
    expect(rows[1].output).toEqual({ field_1: 'x'.repeat(1000) });
  } else {
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('run_id,profile_id,profile_name,status,error,finished_at,field_0,field_1');
    expect(lines).toHaveLength(RUNS + 1);
  }
});
