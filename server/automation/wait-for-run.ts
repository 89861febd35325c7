import type { Queryable } from '../db/driver';
import { type Publisher, runTopic } from '../events/publisher';
import { findRun, type RunRow } from '../store/runs';
import { everything } from '../store/scope';

/** The run once `answerable`, or as it is at `deadline` or when `gone` aborts. */
export async function waitForRun(
  { db, publisher }: { db: Queryable; publisher: Publisher },
  run: RunRow,
  answerable: (run: RunRow) => boolean,
  deadline: number,
  gone: AbortSignal,
): Promise<RunRow> {
  const reread = async (current: RunRow) =>
    (await findRun(db, everything(run.account_id), run.id)) ?? current;
  const watch = publisher.watch(runTopic(run.id));
  try {
    // Read once more now that it is watched: it may have changed since the caller read it.
    let current = answerable(run) ? run : await reread(run);
    while (!answerable(current) && Date.now() < deadline && !gone.aborted) {
      await watch.changed(deadline - Date.now(), gone);
      current = await reread(current);
    }
    return current;
  } finally {
    watch.close();
  }
}
