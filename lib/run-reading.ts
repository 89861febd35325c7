import type { AutomationRun } from './api/schemas/automation';
import { t } from './i18n';

/** How long a run took, as a sentence part ("4 s", "2 min 5 s"); null until it has finished. */
export function runDuration(run: AutomationRun): string | null {
  const start = Date.parse(run.started_at ?? run.created_at);
  const end = Date.parse(run.finished_at ?? '');
  if (Number.isNaN(start) || Number.isNaN(end)) return null;
  const seconds = Math.max(0, Math.round((end - start) / 1000));
  if (seconds < 60) return t('durationSeconds', seconds);
  return t('durationMinutes', Math.floor(seconds / 60), seconds % 60);
}

/**
 * A run's outputs in the order of the steps that wrote them (the service's JSON keeps no order of its own),
 * any others after.
 */
export function outputsInStepOrder(run: AutomationRun): [string, unknown][] {
  const written = run.steps.flatMap(({ output_name }) => (output_name ? [output_name] : []));
  const rank = (key: string) => {
    const at = written.indexOf(key);
    return at === -1 ? written.length : at;
  };
  return Object.entries(run.output).sort(([a], [b]) => rank(a) - rank(b));
}
