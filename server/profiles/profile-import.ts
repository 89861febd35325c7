import type { ProfileSheetRow } from '../../lib/api/inputs/profile-sheet';
import { parseProxyUrl } from '../../lib/api/proxy-url';
import type { ImportedRow, ProfileImportResult } from '../../lib/api/schemas/profile-import';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/log';
import type { EventLog } from '../events/event-log';
import { generateIdentity } from '../identity/generate';
import { savedProxiesFor } from '../proxies/proxy-reuse';
import { insertSheetProfiles } from '../store/profile-sheets';
import type { SheetRow } from './sheet-reading';

export interface ImportDeps {
  clock: Clock;
  events: EventLog;
  log: Logger;
}

/**
 * Profiles written in one transaction: small, so that an import of 10,000 does not hold the embedded database,
 * which serves one statement at a time, while other accounts wait.
 */
const CHUNK = 50;

/**
 * Makes a profile of each good row, in the file's order, and answers every row: made, or its problem. The rows'
 * proxies are saved first (reusing the account's where one says the same), then the profiles in small
 * transactions, letting others' requests in between. Should a transaction fail, the rows it held and those after
 * it are answered as not made, so that the answer always says which rows made it.
 */
export async function importProfiles(
  { clock, events, log }: ImportDeps,
  accountId: string,
  rows: SheetRow[],
): Promise<ProfileImportResult> {
  const items: ImportedRow[] = rows.map(({ line, ...row }) =>
    'refused' in row ? { line, ok: false, problem: row.refused } : { line, ok: false },
  );
  const good = rows.flatMap((row, index) => ('row' in row ? [{ index, ...row.row }] : []));
  const proxyOf = await saveProxies({ clock, events }, accountId, good);
  for (let start = 0; start < good.length; start += CHUNK) {
    const chunk = good.slice(start, start + CHUNK);
    try {
      const fresh = chunk.map(({ index, name, tags, notes }) => ({
        name,
        tags: tags ?? [],
        notes: notes ?? '',
        proxyId: proxyOf.get(index) ?? null,
        identity: generateIdentity(),
      }));
      const made = await events.writeWithEvents(async (tx, _emit, emitAll) => {
        const profiles = await insertSheetProfiles(tx, clock, accountId, fresh);
        await emitAll(accountId, 'profile.created', profiles);
        return profiles;
      });
      for (const [at, { index }] of chunk.entries()) {
        const profile = made[at];
        items[index] = { line: rows[index]?.line as number, ok: true, id: profile?.id, name: profile?.name };
      }
    } catch (error) {
      log.error('an import stopped', { account_id: accountId, error });
      for (const { index } of good.slice(start)) items[index] = notMade(rows[index]?.line as number);
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const created = items.filter((item) => item.ok).length;
  return {
    total: rows.length,
    created,
    failed: rows.length - created,
    proxies_created: proxyOf.created,
    items,
  };
}

/** The saved proxy of each row that names one, by the row's place; proxies saved anew are counted. */
async function saveProxies(
  { clock, events }: Pick<ImportDeps, 'clock' | 'events'>,
  accountId: string,
  good: (ProfileSheetRow & { index: number })[],
): Promise<Map<number, string> & { created: number }> {
  const withProxy = good.flatMap(({ index, proxy }) => {
    const parts = proxy ? parseProxyUrl(proxy) : null;
    return parts && !('error' in parts) ? [{ index, parts }] : [];
  });
  const saved = await events.writeWithEvents(async (tx, _emit, emitAll) => {
    const found = await savedProxiesFor(
      tx,
      clock,
      accountId,
      withProxy.map(({ parts }) => parts),
    );
    await emitAll(accountId, 'proxy.created', found.created);
    return found;
  });
  const byIndex = new Map(withProxy.map(({ index }, at) => [index, saved.proxies[at]?.id as string]));
  return Object.assign(byIndex, { created: saved.created.length });
}

function notMade(line: number): ImportedRow {
  return {
    line,
    ok: false,
    problem: {
      status: 500,
      code: 'internal',
      detail: 'This row was not imported: the service failed while writing it (logged). Import it again.',
    },
  };
}
