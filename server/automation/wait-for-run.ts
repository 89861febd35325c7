import type { Database } from '../db/driver';
import { type Publisher, runTopic } from '../events/publisher';
import { findRun, type RunRow } from '../store/runs';
import { everything } from '../store/scope';

/** The run once `answerable`, or as it is at `deadline` or when `gone` aborts. */
export async function waitForRun(
  { db, publisher }: { db: Database; publisher: Publisher },
  run: RunRow,
  answerable: (run: RunRow) => boolean,
  deadline: number,
  gone: AbortSignal,
): Promise<RunRow> {
  let current = run;
  while (!answerable(current) && Date.now() < deadline && !gone.aborted) {
    await publisher.next(runTopic(run.id), deadline - Date.now(), gone);
    current = (await findRun(db, everything(run.account_id), run.id)) ?? current;
  }
  return current;
}
