import type { Script } from '../api/inputs/automation';
import type { ProfileSortName } from '../api/profile-sorts';
import type { QuotaSnapshot } from '../api/rate-limit';
import type { Role } from '../api/roles';
import type { Plan } from '../api/schemas/account';
import type { AutomationRun } from '../api/schemas/automation';
import type { HelpRequest } from '../api/schemas/help-requests';
import type { Profile, ProfileTag } from '../api/schemas/profiles';
import type { ProxyConfig } from '../api/schemas/proxies';
import type { ProxyCheckJob } from '../api/schemas/proxy-fleet';
import type { Session } from '../api/schemas/sessions';
import { defineItem as item } from './item';

/**
 * Everything the extension remembers, as storage items (item.ts) shared by the popup, the options page and the
 * worker. All live in `local:` (never `sync:`, so the key never leaves the machine) except two that last a
 * browser session (`session:`): the view a notification asks the popup to open, and the drafts of its forms.
 *
 * One writer each: the worker writes every item the pages read; a page writes only its own drafts.
 *
 * A value is stored as it is under its item's key: when an item's shape changes, give it a new key, so that a
 * value of the old shape is never read as the new.
 */

export const DEFAULT_SERVICE_URL = 'http://127.0.0.1:8787';

export interface Connection {
  serviceUrl: string;
  /** Null until the person enters one. Never logged, sent only to `serviceUrl`. */
  apiKey: string | null;
}

export interface Preferences {
  /** Notify when a followed run ends. */
  notifyRuns: boolean;
  /** Notify when a session's browser exits on its own. */
  notifySessionExits: boolean;
  /** Start sessions without a window (from a shortcut or the popup). */
  headless: boolean;
}

/** A list as last fetched, for the popup to draw at once before it refreshes. */
export interface Cached<T> {
  data: T[];
  savedAt: number;
}

/** What the profiles list is narrowed to, on the service: `q` in a name or tag, one exact `tag`, a status. */
export interface ProfileFilter {
  q?: string;
  tag?: string;
  status?: 'idle' | 'running';
  /** The list's order; newest first unless set. */
  sort?: ProfileSortName;
}

/**
 * The profiles as far as the person has scrolled: the pages read so far for `filter`, the cursor of the next one
 * (null at the end) and how many match in all. (Lists kept before paging lack the last three: read as unfiltered.)
 */
export interface ProfileListing extends Cached<Profile> {
  filter?: ProfileFilter;
  next_cursor?: string | null;
  total?: number | null;
}

export interface WatchedRun {
  /** The run as last seen; `run.version` grows with every change. */
  run: AutomationRun;
  /** `watching` until it ends; `ended` once seen finished; `dropped` when the service no longer knows it. */
  phase: 'watching' | 'ended' | 'dropped';
  /** When the worker began following it, and when it noticed the end (ms since the epoch). */
  since: number;
  endedAt: number | null;
  /** Whether the end was announced (a notification at most once) and whether the person has looked at it. */
  notified: boolean;
  seen: boolean;
  /** Why it was dropped, as a sentence. */
  message: string | null;
}

export interface PlanLimits {
  name: Plan;
  /** Requests an hour; null without a limit. */
  hourlyLimit: number | null;
  /** Sessions at once. */
  sessionLimit: number;
  /** The workspace the key belongs to, and the member it acts as with its role (absent from older services). */
  workspace?: string;
  member?: { id: string; name: string };
  role?: Role;
  /** The operations the role may not call, as the service said: the popup leaves them out. */
  mayNot?: string[];
}

export interface LastProfile {
  id: string;
  name: string;
}

/** The last script run, to run again from a shortcut. */
export interface LastRun {
  profile_id: string;
  script: Script;
  name?: string;
}

export const connection = item<Connection>('local:connection', {
  serviceUrl: DEFAULT_SERVICE_URL,
  apiKey: null,
});
export const preferences = item<Preferences>('local:preferences', {
  notifyRuns: true,
  notifySessionExits: true,
  headless: false,
});
export const cachedProfiles = item<ProfileListing | null>('local:cachedProfiles', null);
/** The tags of every profile the key may see, with their counts, for the list's chips. */
export const cachedTags = item<Cached<ProfileTag> | null>('local:cachedTags', null);
export const cachedProxies = item<Cached<ProxyConfig> | null>('local:cachedProxies', null);
/** Sessions that are starting or running, as the service last said. */
export const cachedSessions = item<Cached<Session> | null>('local:cachedSessions', null);
/** Runs the worker follows or recently followed, newest first. */
export const watchedRuns = item<WatchedRun[]>('local:watchedRuns', []);
/** Requests for a person (an agent's or a run's) still waiting for an answer, newest first. */
export const openRequests = item<HelpRequest[]>('local:openRequests', []);
export const quota = item<QuotaSnapshot | null>('local:quota', null);
/** What the key's plan allows, as the service last said: warnings before a bulk action are drawn from it. */
export const plan = item<PlanLimits | null>('local:plan', null);
/** Profiles whose start waits in the service's line for a free browser, each with when it was asked. */
export const waitingStarts = item<Record<string, string>>('local:waitingStarts', {});
export const lastProfile = item<LastProfile | null>('local:lastProfile', null);
export const lastRun = item<LastRun | null>('local:lastRun', null);
/** The id of the last batch run on many profiles, shown in Automation until another replaces it. */
export const lastBatch = item<string | null>('local:lastBatch', null);
/** The last Check all of the account's proxies, as its events tell how far it is. */
export const proxyCheckJob = item<ProxyCheckJob | null>('local:proxyCheckJob', null);
/** The route (`#/runs/<id>`) a notification asked the popup to show; the popup clears it once shown. */
export const pendingView = item<string | null>('session:pendingView', null);
/** Scripts the person saved by name in the popup, to run again. */
export const savedScripts = item<Record<string, Script>>('local:savedScripts', {});
/**
 * What the person was typing in a form, by form, for the browser session: the popup closes as soon as it loses
 * focus, and its forms pick up where they were. Passwords and keys are never kept.
 */
export const drafts = item<Record<string, Record<string, string>>>('session:drafts', {});
