import type { RunCreate, Script } from '../api/inputs/automation';
import type { BulkRequestInput } from '../api/inputs/bulk';
import type { ProfileCreate, ProfileUpdate } from '../api/inputs/profiles';
import type { ProxyInput } from '../api/inputs/proxies';
import { PROFILE_SORTS } from '../api/profile-sorts';
import { RunStatus } from '../api/schemas/automation';
import { Id } from '../api/schemas/common';
import { z } from '../api/zod';

/**
 * A script checked as an envelope only: the service validates its steps and answers 422 with the step at
 * fault, which reaches the popup as field errors. (The popup checks it against `Script` as the person types;
 * the worker need not carry those schemas.)
 */
const ScriptEnvelope = z.looseObject({
  steps: z.array(z.looseObject({ action: z.string() })).check(z.minLength(1)),
});

const RunEnvelope = z
  .looseObject({
    profile_id: z.optional(Id),
    session_id: z.optional(Id),
    script: ScriptEnvelope,
    name: z.optional(z.string()),
  })
  .check(
    z.refine((run) => Boolean(run.profile_id) !== Boolean(run.session_id), {
      message: 'give exactly one of profile_id or session_id',
      path: ['profile_id'],
    }),
  );

/** A profile or proxy to save, checked as an envelope only: the service checks the fields, as for a run. */
const Body = z.looseObject({});
const PastedLine = z.object({ line: z.number(), text: z.string() });

/** What a list of profiles is narrowed to and ordered by. */
const narrowing = {
  q: z.optional(z.string()),
  tag: z.optional(z.string()),
  status: z.optional(z.enum(['idle', 'running'])),
  sort: z.optional(z.enum(PROFILE_SORTS)),
};

const intent = <S extends z.core.$ZodLooseShape>(shape: S) => z.strictObject({ type: z.string(), ...shape });

/**
 * The intents the popup and the options page send the worker, the only writer of shared extension state:
 * one schema per intent. The worker picks the schema by `type` and validates the whole message with it: a
 * lookup instead of a discriminated union of literals keeps that machinery out of the worker's bundle.
 */
export const Intents = {
  /** Lists read from the service into their caches; profiles by their first page, for `filter` if given. */
  'profiles.refresh': intent({ filter: z.optional(z.strictObject(narrowing)) }),
  /** The next page of the profiles listed, added to the cached list. */
  'profiles.more': intent({}),
  /** The tags of every profile the key may see, with their counts, the most used first. */
  'profiles.tags': intent({}),
  /**
   * A page of the profiles whose name or tags hold `q` (and the rest of a filter), answered and not cached: a
   * picker's own search and the manager's table, which the Profiles view's list and filter know nothing of.
   * `limit` up to the service's 100; `total` adds the count of all that match.
   */
  'profiles.search': intent({
    ...narrowing,
    q: z.string(),
    cursor: z.optional(z.string()),
    limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(100))),
    total: z.optional(z.boolean()),
  }),
  /** Profiles made from a CSV sheet (name,proxy,tags,notes), each row answered; the list is read again. */
  'profiles.import': intent({ text: z.string() }),
  /** The profiles a filter matches, in its order, as the text of a CSV sheet an import takes back. */
  'profiles.export': intent(narrowing),
  'proxies.refresh': intent({}),
  /** The proxies whose name or user@host:port hold `q` (only the failing ones if `failing`): answered, not cached. */
  'proxies.search': intent({ q: z.string(), failing: z.boolean() }),
  /** Reconciles the cached sessions (and the profiles' running marks) with the service. */
  'sessions.refresh': intent({}),
  'profile.create': intent({ profile: Body }),
  /** One action on a selection of profiles (ids or the list's filter), in one request; the list is read again. */
  'profiles.bulk': intent({ request: Body }),
  'profile.delete': intent({ profileId: Id, force: z.boolean() }),
  /** Changes the fields given of a profile. */
  'profile.update': intent({ profileId: Id, changes: Body }),
  /** The service's identity check of a profile: every surface claimed against what its browser shows. */
  'profile.checkIdentity': intent({ profileId: Id }),
  /** A new profile with the settings of another. */
  'profile.clone': intent({ profileId: Id }),
  /** A profile's cookies as the text of a file: JSON or cookies.txt. */
  'cookies.export': intent({ profileId: Id, format: z.enum(['json', 'netscape']) }),
  /** Cookies into a profile from pasted or read text: a JSON array or a cookies.txt. */
  'cookies.import': intent({ profileId: Id, text: z.string() }),
  'proxy.delete': intent({ proxyId: Id }),
  /** Whether the proxy works, through the service's check. */
  'proxy.check': intent({ proxyId: Id }),
  /** Check all: every saved proxy, checked by the service as one job (its progress lands in proxyCheckJob). */
  'proxies.checkAll': intent({}),
  /** Each failing proxy replaced, on every profile that uses it, by the proxy of a pasted line. */
  'proxies.replace': intent({
    replacements: z.array(z.object({ from: Id, line: z.string() })),
  }),
  /** Proxies saved from a part of a pasted list, numbered lines; answers the paste's tally so far with this part. */
  'proxies.paste': intent({
    lines: z.array(PastedLine),
    tally: z.object({
      added: z.number(),
      known: z.number(),
      refused: z.array(z.extend(PastedLine, { reason: z.string() })),
    }),
  }),
  /** Creates a proxy, or changes the one `proxyId` names. */
  'proxy.save': intent({ proxyId: z.optional(Id), proxy: Body }),
  'session.start': intent({ profileId: Id, headless: z.optional(z.boolean()) }),
  'session.stop': intent({ profileId: Id }),
  'session.stopAll': intent({}),
  /** Opens the running session's live view in a tab, at a freshly signed address. */
  'session.watch': intent({ sessionId: Id }),
  /** Opens the live view on the tab that asked; false when its session no longer runs. */
  'request.takeOver': intent({ requestId: Id }),
  'request.answer': intent({ requestId: Id, answer: Body }),
  'requests.refresh': intent({}),
  /** A small recent picture of the running session's page, as a data: address. */
  'session.thumbnail': intent({ sessionId: Id }),
  'run.start': intent({ run: RunEnvelope }),
  'run.cancel': intent({ runId: Id }),
  /** The same script on the same profile again, followed like a run just started. */
  'run.rerun': intent({ runId: Id }),
  /** A batch summed up; a page of its runs (of one status); its failed runs queued again; its outputs as text. */
  'batch.get': intent({ batchId: Id }),
  'batch.runs': intent({ batchId: Id, status: z.optional(RunStatus), cursor: z.optional(z.string()) }),
  'batch.retry': intent({ batchId: Id }),
  'batch.export': intent({ batchId: Id, format: z.enum(['csv', 'json']) }),
  /** A batch paused, resumed, or its runs that have not finished cancelled; answered summed up. */
  'batch.pause': intent({ batchId: Id }),
  'batch.resume': intent({ batchId: Id }),
  'batch.cancel': intent({ batchId: Id }),
  /** The account's batches, newest first; and the one the batch card shows. */
  'batches.list': intent({}),
  'batch.show': intent({ batchId: Id }),
  /** A profile's latest runs on the service, whoever started them. */
  'runs.ofProfile': intent({ profileId: Id }),
  /** The person looked at the runs: ended ones count as seen (the badge's mark goes). */
  'runs.seen': intent({}),
  /** Checks an address and key with one request, and saves them only if the service accepts the key. */
  'connection.save': intent({ serviceUrl: z.string(), apiKey: z.string() }),
  'connection.forgetKey': intent({}),
  'preference.set': intent({
    name: z.enum(['notifyRuns', 'notifySessionExits', 'headless']),
    value: z.boolean(),
  }),
  /** A script the person keeps by name in the popup (`script: null` forgets it). */
  'savedScript.set': intent({ name: z.string(), script: z.nullable(ScriptEnvelope) }),
  /** The popup showed the view a notification asked for. */
  'pendingView.shown': intent({}),
};

export type IntentType = keyof typeof Intents;
type Schemas = typeof Intents;
/** An intent as its schema gives it, with `type` narrowed to the key its schema was picked by. */
export type ParsedIntent = { [K in IntentType]: z.output<Schemas[K]> & { type: K } }[IntentType];

/** What the envelopes above check only loosely, as pages send it. */
interface SentBodies {
  'profile.create': { profile: ProfileCreate };
  'profiles.bulk': { request: BulkRequestInput };
  'profile.update': { profileId: string; changes: ProfileUpdate };
  'proxy.save': { proxyId?: string; proxy: ProxyInput };
  'run.start': { run: RunCreate };
  'savedScript.set': { name: string; script: Script | null };
}

/** An intent as a page sends it. */
export type Intent = {
  [K in IntentType]: (K extends keyof SentBodies ? SentBodies[K] : Omit<z.input<Schemas[K]>, 'type'>) & {
    type: K;
  };
}[IntentType];

const IntentTypeOnly = z.object({ type: z.enum(Object.keys(Intents) as IntentType[]) });

/** Validates a message against the schema its `type` names; an unknown type is an issue at `type`. */
export function parseIntent(
  message: unknown,
): { success: true; data: ParsedIntent } | { success: false; issues: z.core.$ZodIssue[] } {
  const known = z.safeParse(IntentTypeOnly, message);
  if (!known.success) return { success: false, issues: known.error.issues };
  const parsed = z.safeParse(Intents[known.data.type], message);
  // The schema was picked by `type`, so the message is of that type.
  if (parsed.success) return { success: true, data: parsed.data as ParsedIntent };
  return { success: false, issues: parsed.error.issues };
}
