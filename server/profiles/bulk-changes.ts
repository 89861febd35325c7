import { type ProxyParts, parseProxyUrl } from '../../lib/api/proxy-url';
import type { Cookie } from '../../lib/api/schemas/cookies';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Activity } from '../core/activity';
import type { Clock } from '../core/clock';
import { Conflict, InvalidInput, NotFound } from '../core/domain-errors';
import type { EventLog } from '../events/event-log';
import { savedProxiesFor } from '../proxies/proxy-reuse';
import {
  lockProfileProxies,
  lockProfileTags,
  profilesByIds,
  writeProfileProxies,
  writeProfileTags,
} from '../store/profile-bulk';
import { requireOwnProxy } from './profile-operations';

/** The most tags a profile holds (as ProfileUpdate's `tags` allows). */
const MAX_TAGS = 20;

export interface ChangeDeps {
  clock: Clock;
  events: EventLog;
  activity: Activity;
}

/** For each profile: done, or the error it met. Ids that are not the account's profiles are not found. */
export type Outcomes = Map<string, { proxyId?: string } | { error: unknown }>;

/** What became of one profile: what was made for it, or the error it met (answered as the API would one). */
export type BulkOutcome = { id: string } & (
  | { proxyId?: string; sessionId?: string; runId?: string; cookies?: Cookie[]; waiting?: true }
  | { error: unknown }
);

/** Profiles changed in one transaction: between two, the work gives way to other accounts' requests. */
const CHUNK = 100;

/** `change` on `ids` a CHUNK at a time, each in its transaction, giving way between them; the outcomes of all. */
async function inChunks(
  activity: Activity,
  accountId: string,
  ids: string[],
  change: (chunk: string[], start: number) => Promise<Outcomes>,
): Promise<Outcomes> {
  const chunks = Math.ceil(ids.length / CHUNK);
  const done = await activity.inPieces(accountId, chunks, (index) =>
    change(ids.slice(index * CHUNK, (index + 1) * CHUNK), index * CHUNK),
  );
  return new Map(done.flatMap((outcomes) => [...outcomes]));
}

/**
 * Adds or removes tags on the account's profiles among `ids`, each reported changed (1,100 in one transaction
 * took 300–460 ms of an embedded database that serves one statement at a time).
 */
export function changeTags(
  deps: ChangeDeps,
  accountId: string,
  ids: string[],
  change: { add: string[] } | { remove: string[] },
): Promise<Outcomes> {
  return inChunks(deps.activity, accountId, ids, (chunk) => changeTagsAtOnce(deps, accountId, chunk, change));
}

async function changeTagsAtOnce(
  { clock, events }: ChangeDeps,
  accountId: string,
  ids: string[],
  change: { add: string[] } | { remove: string[] },
): Promise<Outcomes> {
  return events.writeWithEvents(async (tx, _emit, emitAll) => {
    const current = await lockProfileTags(tx, accountId, ids);
    const outcomes: Outcomes = new Map();
    const changed = new Map<string, string[]>();
    for (const id of ids) {
      const tags = current.get(id);
      if (!tags) outcomes.set(id, { error: new NotFound('profile') });
      else {
        const next =
          'add' in change
            ? [
                ...tags,
                ...change.add.filter(
                  (tag, index) => !tags.includes(tag) && change.add.indexOf(tag) === index,
                ),
              ]
            : tags.filter((tag) => !change.remove.includes(tag));
        if (next.length > MAX_TAGS) outcomes.set(id, { error: tooManyTags(tags.length) });
        else {
          outcomes.set(id, {});
          if (next.length !== tags.length) changed.set(id, next);
        }
      }
    }
    await writeProfileTags(tx, clock, accountId, changed);
    await emitAll(accountId, 'profile.updated', await profilesByIds(tx, accountId, [...changed.keys()]));
    return outcomes;
  });
}

/**
 * Points the account's profiles among `ids` at proxies: all at the saved proxy `proxyId`, none (null), or each at
 * the proxy of the pasted line in the same place, that proxy saved where none of the account's says the same
 * (scheme, host, port, user name and password). A CHUNK at a time; a profile already pointing there is not written.
 */
export async function changeProxies(
  deps: ChangeDeps,
  accountId: string,
  ids: string[],
  target: { proxyId: string | null } | { lines: string[] },
): Promise<{ outcomes: Outcomes; created: number }> {
  if ('lines' in target && target.lines.length !== ids.length)
    throw unevenLines(ids.length, target.lines.length);
  let created = 0;
  const outcomes = await inChunks(deps.activity, accountId, ids, async (chunk, start) => {
    try {
      const done = await changeProxiesAtOnce(
        deps,
        accountId,
        chunk,
        'lines' in target ? { lines: target.lines.slice(start, start + chunk.length) } : target,
      );
      created += done.created;
      return done.outcomes;
    } catch (error) {
      // Past the plan's cap on saved proxies: with nothing done the whole is refused; else the chunks before stay
      // done and the rest say why not.
      if (start === 0 || !(error instanceof Conflict && error.code === 'proxy_limit')) throw error;
      return new Map(chunk.map((id) => [id, { error }]));
    }
  });
  return { outcomes, created };
}

async function changeProxiesAtOnce(
  { clock, events }: ChangeDeps,
  accountId: string,
  ids: string[],
  target: { proxyId: string | null } | { lines: string[] },
): Promise<{ outcomes: Outcomes; created: number }> {
  return events.writeWithEvents(async (tx, _emit, emitAll) => {
    const current = await lockProfileProxies(tx, accountId, ids);
    const chosen = new Map<string, string | null>();
    const created: ProxyConfig[] = [];
    if ('proxyId' in target) {
      await requireOwnProxy(tx, accountId, target.proxyId);
      for (const id of ids) if (current.has(id)) chosen.set(id, target.proxyId);
    } else {
      const lines = new Map<string, ProxyParts>();
      for (const [index, id] of ids.entries()) {
        if (!current.has(id)) continue;
        const parts = parseProxyUrl(target.lines[index] as string);
        if ('error' in parts) throw new Error(`a proxy was validated but does not parse: ${parts.error}`);
        lines.set(id, parts);
      }
      const saved = await savedProxiesFor(tx, clock, accountId, [...lines.values()]);
      for (const [index, id] of [...lines.keys()].entries())
        chosen.set(id, saved.proxies[index]?.id as string);
      created.push(...saved.created);
    }
    const outcomes: Outcomes = new Map();
    for (const id of ids) {
      const proxyId = chosen.get(id);
      outcomes.set(
        id,
        proxyId === undefined ? { error: new NotFound('profile') } : proxyId ? { proxyId } : {},
      );
    }
    const changed = new Map([...chosen].filter(([id, proxyId]) => current.get(id) !== proxyId));
    await writeProfileProxies(tx, clock, accountId, changed);
    await emitAll(accountId, 'proxy.created', created);
    await emitAll(accountId, 'profile.updated', await profilesByIds(tx, accountId, [...changed.keys()]));
    return { outcomes, created: created.length };
  });
}

function tooManyTags(has: number): InvalidInput {
  return new InvalidInput(
    'tags',
    `would be more than ${MAX_TAGS} tags`,
    `This profile has ${has} tags; with these it would have more than ${MAX_TAGS}. Remove some first.`,
  );
}

function unevenLines(profiles: number, lines: number): InvalidInput {
  return new InvalidInput(
    'proxies',
    `must hold one proxy per profile selected (${profiles})`,
    `Invalid body: proxies: ${profiles} profiles are selected but ${lines} proxies were given; give one per profile, in the selection's order.`,
  );
}
