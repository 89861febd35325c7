import type { ApiClient } from '../../lib/api/client';
import type { RunCreate } from '../../lib/api/inputs/automation';
import { lastProfile, lastRun, type WatchedRun } from '../../lib/storage';
import { profileName } from './profiles';
import type { Watcher } from './watcher';

export type Runs = ReturnType<typeof createRuns>;

/** Starts a script run (or one again), remembers it as the one to run again, and follows it to its end. */
export function createRuns({ api, watcher }: { api(): Promise<ApiClient>; watcher: Watcher }) {
  return {
    async start(body: RunCreate): Promise<WatchedRun> {
      const client = await api();
      const run = await client.runAutomation(body);
      const { profile_id } = run;
      await Promise.all([
        lastRun.setValue({ profile_id, script: body.script, ...(body.name ? { name: body.name } : {}) }),
        lastProfile.setValue({ id: profile_id, name: await profileName(run) }),
      ]);
      return watcher.watch(run);
    },

    async rerun(runId: string): Promise<WatchedRun> {
      return watcher.watch(await (await api()).rerunRun(runId));
    },
  };
}
