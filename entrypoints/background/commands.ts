import { ApiError } from '../../lib/api/errors';
import { t } from '../../lib/i18n';
import { routes } from '../../lib/messaging/protocol';
import { lastProfile, lastRun } from '../../lib/storage';
import { requireApi, sentenceOf } from './connection';
import type { Runs } from './runs';
import type { Sessions } from './sessions';

/** The manifest's `commands` besides `_execute_action` (which the browser handles by opening the popup). */
export const COMMANDS = {
  startLastProfile: 'start-last-profile',
  stopAllSessions: 'stop-all-sessions',
  runLastScript: 'run-last-script',
} as const;

interface CommandDeps {
  sessions: Sessions;
  runs: Runs;
  /** Shows the outcome; a click opens `route`. */
  feedback(route: string, message: string): Promise<void>;
}

/** How long after a first press of Stop all a second one stops the sessions. */
const STOP_ALL_CONFIRM_MS = 5000;

/**
 * The `commands.onCommand` listener: every shortcut says what it did, or why it could not. Stop all asks first:
 * the first press says how many sessions it would stop, a second one within 5 s stops them.
 */
export function createCommandHandler({ sessions, runs, feedback }: CommandDeps) {
  let stopAllAskedUntil = 0;
  const actions: Record<string, () => Promise<void>> = {
    async [COMMANDS.startLastProfile]() {
      const profile = await lastProfile.getValue();
      if (!profile) return feedback(routes.home, t('noLastProfile'));
      const started = await sessions.start(profile.id);
      const said = started.status === 'waiting' ? 'sessionWaiting' : 'sessionStarted';
      await feedback(routes.profile(profile.id), t(said, profile.name));
    },

    async [COMMANDS.stopAllSessions]() {
      if (Date.now() >= stopAllAskedUntil) {
        const live = (await sessions.reconcile()).length;
        if (live === 0) return feedback(routes.home, t('noSessionsRunning'));
        stopAllAskedUntil = Date.now() + STOP_ALL_CONFIRM_MS;
        return feedback(routes.home, t('stopAllAsk', live));
      }
      stopAllAskedUntil = 0;
      const { stopped, failed } = await sessions.stopAll();
      const [firstFailure] = failed;
      if (firstFailure)
        return feedback(routes.home, t('someNotStopped', failed.length, firstFailure.message));
      await feedback(
        routes.home,
        stopped.length > 0 ? t('sessionsStopped', stopped.length) : t('noSessionsRunning'),
      );
    },

    async [COMMANDS.runLastScript]() {
      const last = await lastRun.getValue();
      if (!last) return feedback(routes.home, t('noLastScript'));
      const { run } = await runs.start(last);
      await feedback(routes.run(run.id), t('runStarted', last.name ?? t('lastScript')));
    },
  };

  return async (command: string): Promise<void> => {
    const action = actions[command];
    if (!action) return;
    try {
      // Every shortcut needs the service: without a key, that is what it says, whatever else is missing too.
      await requireApi();
      await action();
    } catch (error) {
      const noKey = error instanceof ApiError && error.code === 'no_key';
      await feedback(noKey ? routes.settings : routes.home, sentenceOf(error));
    }
  };
}
