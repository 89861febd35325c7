import { EMPTY_HISTORY, type PollHistory } from '../../lib/scheduling/watch-plan';
import { watchedRuns } from '../../lib/storage';
import { defineItem } from '../../lib/storage/item';
import { connect, latestQuota } from './connection';

/** The polls the watcher made and what they taught, kept so that a worker ended at any moment plans on from them. */
const watchHistory = defineItem<PollHistory>('local:watchHistory', EMPTY_HISTORY);

/** What the worker's watcher keeps in extension storage, and its way to the service. */
export const watchStore = {
  api: connect,
  runs: watchedRuns,
  history: watchHistory,
  quota: { getValue: latestQuota },
};
