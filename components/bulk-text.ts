import type { BulkActionName } from '../lib/api/bulk-limits';
import { sumProblems } from '../lib/api/bulk-problems';
import type { QuotaSnapshot } from '../lib/api/rate-limit';
import type { BulkResult } from '../lib/api/schemas/bulk';
import { t } from '../lib/i18n';
import { type BulkAction, numberFor, roomFor, type Selected, startOutgrowsRoom } from './bulk-rules';
import { bulkCostText } from './quota';

/** Problems said in the outcome, the most met first; the failures of the rest are counted. */
const SAID_PROBLEMS = 10;

/** A bulk start's outcome: "Starting 100: 8 now, 92 waiting for room." (the failed are named apart). */
export function startingText(result: BulkResult): string {
  const waiting = result.waiting ?? 0;
  return t('bulkStarting', result.succeeded, result.succeeded - waiting, waiting);
}

/**
 * What a bulk action did: how many it did, then each problem once with the service's sentence, by the profile's name
 * when one profile met it, else by how many and the first few names.
 */
export function outcomeText(action: BulkActionName, result: BulkResult): string {
  const said = sumProblems(result.problems).slice(0, SAID_PROBLEMS);
  const lines = said.map(({ count, profiles, detail }) =>
    count === 1
      ? `${profiles[0]}: ${detail}`
      : t(
          'bulkProblemMany',
          count,
          [...profiles, ...(count > profiles.length ? ['…'] : [])].join(', '),
          detail,
        ),
  );
  const unsaid = result.failed - said.reduce((sum, { count }) => sum + count, 0);
  if (unsaid > 0) lines.push(t('bulkMoreFailed', unsaid));
  const done = result.batch_id
    ? t('bulkDone_batch', result.succeeded, result.selected)
    : action === 'start'
      ? startingText(result)
      : t(`bulkDone_${action}` as 'bulkDone_stop', result.succeeded, result.selected);
  return [done, ...lines].join('\n');
}

/** An action's question: what will happen, what waits for room, and what it spends of the hour's requests. */
export function questionText(selected: Selected, action: BulkAction, seen: QuotaSnapshot | null | undefined) {
  const { limits, running } = selected;
  const number = numberFor(selected, action);
  const cap =
    action === 'start' && startOutgrowsRoom(selected) && limits
      ? ` ${t('bulkOverSessions', limits.name, limits.sessionLimit, running, roomFor(selected))}`
      : '';
  return `${t(`bulkQuestion_${action}`, number)}${cap} ${bulkCostText(seen, number)}`;
}
