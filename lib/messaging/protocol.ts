import type { QuotaSnapshot } from '../api/rate-limit';
import type { Account } from '../api/schemas/account';
import type { AutomationRun, Batch } from '../api/schemas/automation';
import type { BulkResult } from '../api/schemas/bulk';
import type { CookiesImported } from '../api/schemas/cookies';
import type { IdentityCheck } from '../api/schemas/identity-check';
import type { FieldError } from '../api/schemas/problem';
import type { ProfileImportResult } from '../api/schemas/profile-import';
import type { Profile, ProfileUpdated } from '../api/schemas/profiles';
import type { ProxyCheck, ProxyConfig } from '../api/schemas/proxies';
import type { ProxyCheckJob, ProxyReplaceResult } from '../api/schemas/proxy-fleet';
import type { Session, SessionStartAnswer } from '../api/schemas/sessions';
import type { PasteTally } from '../proxy-paste';
import type { WatchedRun } from '../storage';
import type { Intent, IntentType } from './intents';

export type { Intent, IntentType };

export interface StopAllResult {
  stopped: Session[];
  /** Sessions that could not be stopped, with the reason as a sentence. */
  failed: { profileId: string; message: string }[];
}

/** What the worker answers to each intent; the pages read everything else from storage. */
export interface IntentReplies {
  'profiles.refresh': undefined;
  'profiles.more': undefined;
  'profiles.tags': undefined;
  'profiles.search': { data: Profile[]; next_cursor: string | null; total?: number | undefined };
  'profiles.import': ProfileImportResult;
  'profiles.export': string;
  'proxies.refresh': undefined;
  'proxies.search': ProxyConfig[];
  'sessions.refresh': Session[];
  'profile.create': Profile;
  'profiles.bulk': BulkResult;
  'batch.get': Batch;
  'batch.runs': { data: AutomationRun[]; next_cursor: string | null };
  'batch.retry': Batch;
  'batch.export': string;
  'batch.pause': Batch;
  'batch.resume': Batch;
  'batch.cancel': Batch;
  'batches.list': Batch[];
  'batch.show': undefined;
  'profile.delete': undefined;
  'profile.update': ProfileUpdated;
  'profile.clone': Profile;
  'profile.checkIdentity': IdentityCheck;
  'cookies.export': string;
  'cookies.import': CookiesImported;
  'proxy.delete': undefined;
  'proxy.check': ProxyCheck;
  'proxies.checkAll': ProxyCheckJob;
  'proxies.replace': ProxyReplaceResult;
  'proxies.paste': { tally: PasteTally; summary: string };
  'proxy.save': ProxyConfig;
  /** The session, or the start's place in the service's line for a free browser. */
  'session.start': SessionStartAnswer;
  'session.stop': Session;
  'session.stopAll': StopAllResult;
  /** Whether it opened: false when the session no longer runs. */
  'session.watch': boolean;
  'request.takeOver': boolean;
  'request.answer': undefined;
  'requests.refresh': undefined;
  'session.thumbnail': string;
  'run.start': WatchedRun;
  'run.cancel': AutomationRun;
  'run.rerun': WatchedRun;
  'runs.ofProfile': AutomationRun[];
  'runs.seen': undefined;
  'connection.save': { account: Account; quota: QuotaSnapshot | null };
  'connection.forgetKey': undefined;
  'preference.set': undefined;
  'savedScript.set': undefined;
  'pendingView.shown': undefined;
}

export interface WorkerError {
  /** A problem code from the service, or `no_key`, `invalid_message`, `worker_unavailable`, `internal`. */
  code: string;
  /** A sentence fit to show. */
  message: string;
  /** HTTP status when the service answered, else 0. */
  status: number;
  retryAfter: number | null;
  fieldErrors: FieldError[];
}

export type Reply<T> = { ok: true; value: T } | { ok: false; error: WorkerError };

/** The port an open popup holds to the worker: while it is connected, the worker follows the event stream. */
export const EVENTS_PORT = 'events';

/** The popup's views that the worker opens (from a notification), as location hashes. */
export const routes = {
  home: '#/',
  settings: '#/settings',
  run: (id: string) => `#/runs/${encodeURIComponent(id)}`,
  requests: '#/requests',
  profile: (id: string) => `#/profiles/${encodeURIComponent(id)}`,
};

export function failure(code: string, message: string): { ok: false; error: WorkerError } {
  return { ok: false, error: { code, message, status: 0, retryAfter: null, fieldErrors: [] } };
}
