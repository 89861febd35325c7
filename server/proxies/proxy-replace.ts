import type { ProxyReplaceResult } from '../../lib/api/schemas/proxy-fleet';
import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { EventLog } from '../events/event-log';
import { profilesByIds } from '../store/profile-bulk';
import { lockOwnProxies, moveProfilesToProxies } from '../store/proxy-replace';
import type { Reader } from '../store/scope';

/**
 * Replaces proxies on every profile the reader sees that uses them, in one transaction: each profile on a `from`
 * proxy is pointed at its `to` proxy and reported changed. A proxy that is not the account's is not found, and
 * then nothing changes.
 */
export async function replaceProxiesOnProfiles(
  { clock, events }: { clock: Clock; events: EventLog },
  reader: Reader,
  replacements: { from: string; to: string }[],
): Promise<ProxyReplaceResult> {
  return events.writeWithEvents(async (tx, _emit, emitAll) => {
    const named = [...new Set(replacements.flatMap(({ from, to }) => [from, to]))];
    if ((await lockOwnProxies(tx, reader.id, named)) < named.length) throw new NotFound('proxy');
    const moved = await moveProfilesToProxies(tx, clock, reader, replacements);
    await emitAll(
      reader.id,
      'profile.updated',
      await profilesByIds(
        tx,
        reader.id,
        moved.map(({ id }) => id),
      ),
    );
    return {
      profiles: moved.length,
      replaced: replacements.map(({ from, to }) => ({
        from,
        to,
        profiles: moved.filter((profile) => profile.from === from).length,
      })),
    };
  });
}
