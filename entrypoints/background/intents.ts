import { browser } from 'wxt/browser';
import type { RunCreate, Script } from '../../lib/api/inputs/automation';
import type { BulkRequestInput } from '../../lib/api/inputs/bulk';
import type { CookieInput } from '../../lib/api/inputs/cookies';
import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { ProfileCreate, ProfileUpdate } from '../../lib/api/inputs/profiles';
import type { ProxyInput } from '../../lib/api/inputs/proxies';
import type { Handlers } from '../../lib/messaging/receive';
import {
  cachedProfiles,
  cachedProxies,
  cachedTags,
  lastBatch,
  pendingView,
  preferences,
  savedScripts,
} from '../../lib/storage';
import { exportCookiesInPages } from './bulk-pages';
import { forgetKey, knowPlan, requireApi, saveConnection } from './connection';
import { change } from './in-turn';
import type { Inbox } from './inbox';
import { forgetProfile, forgetProxy, LIST_PAGE, putFirst, refreshList, replaced } from './lists';
import { moreProfiles, refreshProfiles, searchProfiles } from './profile-list';
import { pasteProxyLines, replaceWithLines } from './proxy-list';
import type { Runs } from './runs';
import type { Sessions } from './sessions';
import type { Watcher } from './watcher';

/** How old the cached sessions may be when the popup asks for them. */
const STALE_ON_POPUP_MS = 10_000;
/** The proxies the popup shows are read whole, up to this many. */
const LIST = { limit: LIST_PAGE };
/** A profile's runs the popup shows from the service, newest first. */
const PROFILE_HISTORY = 20;
/** The batches the popup lists, newest first. */
const BATCHES_SHOWN = 20;

/**
 * What the worker does for each intent of the popup and the options page. The envelopes were checked; the
 * service checks the bodies and answers 422 at the field at fault.
 */
export function createIntentHandlers({
  sessions,
  runs,
  watcher,
  inbox,
}: {
  sessions: Sessions;
  runs: Runs;
  watcher: Watcher;
  inbox: Inbox;
}): Handlers {
  return {
    'profiles.refresh': ({ filter }) => refreshProfiles(filter),
    'profiles.more': () => moreProfiles(),
    'profiles.tags': () => refreshList(cachedTags, async () => (await requireApi()).listProfileTags(LIST)),
    'profiles.search': ({ type: _, ...asked }) => searchProfiles(asked),
    async 'profiles.import'({ text }) {
      const result = await (await requireApi()).importProfiles(text, 'csv');
      await refreshProfiles().catch(() => undefined);
      return result;
    },
    'profiles.export': async ({ type: _, q, ...filter }) =>
      (
        await (await requireApi()).exportProfiles({ ...filter, ...(q?.trim() ? { q: q.trim() } : {}) })
      ).text(),
    'proxies.refresh': () => refreshList(cachedProxies, async () => (await requireApi()).listProxies(LIST)),
    'proxies.search': async ({ q, failing }) =>
      (
        await (
          await requireApi()
        ).listProxies({
          ...LIST,
          ...(q.trim() ? { q: q.trim() } : {}),
          ...(failing ? { status: 'failing' } : {}),
        })
      ).data,
    async 'sessions.refresh'() {
      // The plan is not what the person asked for: a failure to read it leaves the sessions to answer.
      await knowPlan().catch(() => undefined);
      return sessions.reconcile(STALE_ON_POPUP_MS);
    },
    'profile.create': async ({ profile }) =>
      putFirst(cachedProfiles, (await requireApi()).createProfile(profile as ProfileCreate)),
    async 'profiles.bulk'({ request }) {
      const api = await requireApi();
      const body = request as BulkRequestInput;
      const result =
        body.action === 'export_cookies'
          ? await exportCookiesInPages(api, body)
          : await api.bulkProfiles(body);
      if (result.batch_id) await lastBatch.setValue(result.batch_id);
      await sessions.inLine(result.items.filter((item) => item.waiting).map((item) => item.id));
      // What changed is read again: rows deleted, tags and proxies changed, sessions started.
      await refreshProfiles().catch(() => undefined);
      return result;
    },
    'batch.get': async ({ batchId }) => (await requireApi()).getBatch(batchId),
    'batch.runs': async ({ batchId, status, cursor }) =>
      (await requireApi()).listRuns({ batch_id: batchId, status, cursor, limit: LIST_PAGE }),
    'batch.retry': async ({ batchId }) => (await requireApi()).retryBatch(batchId),
    'batch.export': async ({ batchId, format }) =>
      (await (await requireApi()).exportBatch(batchId, format)).text(),
    'batch.pause': async ({ batchId }) => (await requireApi()).pauseBatch(batchId),
    'batch.resume': async ({ batchId }) => (await requireApi()).resumeBatch(batchId),
    'batch.cancel': async ({ batchId }) => (await requireApi()).cancelBatch(batchId),
    'batches.list': async () => (await (await requireApi()).listBatches({ limit: BATCHES_SHOWN })).data,
    async 'batch.show'({ batchId }) {
      await lastBatch.setValue(batchId);
    },
    async 'profile.delete'({ profileId, force }) {
      await (await requireApi()).deleteProfile(profileId, { force });
      await forgetProfile(profileId);
    },
    async 'profile.update'({ profileId, changes }) {
      const updated = await (await requireApi()).updateProfile(profileId, changes as ProfileUpdate);
      const { applies_at_next_start: _, ...profile } = updated;
      await change(cachedProfiles, (cached) => cached && { ...cached, data: replaced(cached.data, profile) });
      return updated;
    },
    'profile.checkIdentity': async ({ profileId }) => (await requireApi()).checkProfileIdentity(profileId),
    'profile.clone': async ({ profileId }) =>
      putFirst(cachedProfiles, (await requireApi()).cloneProfile(profileId)),
    'cookies.export': async ({ profileId, format }) =>
      (await (await requireApi()).getProfileCookieFile(profileId, format)).text(),
    'cookies.import': async ({ profileId, text }) =>
      (await requireApi()).putProfileCookies(profileId, cookieBody(text)),
    async 'proxy.delete'({ proxyId }) {
      await (await requireApi()).deleteProxy(proxyId);
      await forgetProxy(proxyId);
    },
    // The service keeps the result as the proxy's last check; the cached list follows, for the rows that show it.
    async 'proxy.check'({ proxyId }) {
      const check = await (await requireApi()).checkProxy(proxyId);
      const last_check = { ...check, checked_at: new Date().toISOString() };
      await change(
        cachedProxies,
        (cached) =>
          cached && {
            ...cached,
            data: cached.data.map((proxy) => (proxy.id === proxyId ? { ...proxy, last_check } : proxy)),
          },
      );
      return check;
    },
    'proxies.paste': ({ lines, tally }) => pasteProxyLines(lines, tally),
    // The job's events (proxies.checking, from its start) keep its progress in proxyCheckJob.
    'proxies.checkAll': async () => (await requireApi()).checkAllProxies(),
    'proxies.replace': ({ replacements }) => replaceWithLines(replacements),
    async 'proxy.save'({ proxyId, proxy }) {
      const api = await requireApi();
      const body = proxy as ProxyInput;
      return putFirst(cachedProxies, proxyId ? api.updateProxy(proxyId, body) : api.createProxy(body));
    },
    'session.start': ({ profileId, headless }) => sessions.start(profileId, headless),
    'session.stop': ({ profileId }) => sessions.stop(profileId),
    'session.stopAll': () => sessions.stopAll(),
    async 'session.watch'({ sessionId }) {
      const url = (await (await requireApi()).getSession(sessionId)).live_view_url;
      if (url) await browser.tabs.create({ url });
      return Boolean(url);
    },
    'request.takeOver': ({ requestId }) => inbox.takeOver(requestId),
    'request.answer': ({ requestId, answer }) => inbox.answer(requestId, answer as HelpAnswer),
    'requests.refresh': () => inbox.refresh(),
    async 'session.thumbnail'({ sessionId }) {
      const picture = (await (await requireApi()).getSessionThumbnail(sessionId)) as Blob;
      let text = '';
      for (const byte of new Uint8Array(await picture.arrayBuffer())) text += String.fromCharCode(byte);
      return `data:image/jpeg;base64,${btoa(text)}`;
    },
    'run.start': ({ run }) => runs.start(run as RunCreate),
    'run.cancel': async ({ runId }) => (await requireApi()).cancelRun(runId),
    'run.rerun': ({ runId }) => runs.rerun(runId),
    'runs.ofProfile': async ({ profileId }) =>
      (await (await requireApi()).listRuns({ profile_id: profileId, limit: PROFILE_HISTORY })).data,
    'runs.seen': () => watcher.markSeen(),
    'connection.save': ({ serviceUrl, apiKey }) => saveConnection(serviceUrl, apiKey),
    'connection.forgetKey': () => forgetKey(),
    'preference.set': ({ name, value }) => change(preferences, (saved) => ({ ...saved, [name]: value })),
    'savedScript.set': ({ name, script }) =>
      change(savedScripts, ({ [name]: _, ...others }) =>
        script ? { ...others, [name]: script as Script } : others,
      ),
    'pendingView.shown': () => pendingView.setValue(null),
  };
}

/** Pasted cookies as the service takes them: a JSON array as JSON, anything else as the text of a cookies.txt. */
function cookieBody(text: string): CookieInput[] | string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed as CookieInput[];
  } catch {
    // Not JSON: a cookies.txt, which the service reads line by line.
  }
  return text;
}
