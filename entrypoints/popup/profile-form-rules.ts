import { proxyText } from '../../components/profile-proxy';
import type { ProfileCreate, ProfileUpdate } from '../../lib/api/inputs/profiles';
import { parseProxyUrl, withProxyPassword } from '../../lib/api/proxy-url';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { MessageName } from '../../lib/i18n';
import { fingerprintDraft, fingerprintOf } from './fingerprint-presets';

/** The proxy choice that means "type a URL" rather than a saved proxy's id. */
export const TYPED = 'url';

/** The form's fields for a profile (empty for a new one), as the person edits them. */
export function initialFields(profile: Profile | undefined) {
  return {
    name: profile?.name ?? '',
    proxyChoice: profile?.proxy_id ?? (profile?.proxy ? TYPED : ''),
    proxyUrl: profile?.proxy_id ? '' : (profile?.proxy ?? ''),
    proxyPassword: '',
    tags: profile?.tags.join(', ') ?? '',
    notes: profile?.notes ?? '',
    ...fingerprintDraft(profile?.fingerprint),
  };
}

export type ProfileDraft = ReturnType<typeof initialFields>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const tagsOf = (draft: ProfileDraft): string[] =>
  draft.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

function proxyPart(draft: ProfileDraft) {
  if (draft.proxyChoice === TYPED) return { proxy: withProxyPassword(draft.proxyUrl, draft.proxyPassword) };
  return draft.proxyChoice ? { proxy_id: draft.proxyChoice } : { proxy: null };
}

/**
 * What Save sends: a new profile's fields that are filled, or only what changed in a saved one, so that an
 * untouched proxy keeps its password.
 */
export function profileBody(
  draft: ProfileDraft,
  profile: Profile | undefined,
): ProfileCreate | ProfileUpdate {
  const tags = tagsOf(draft);
  const fingerprint = fingerprintOf(draft);
  if (!profile)
    return {
      name: draft.name,
      ...(draft.proxyChoice ? proxyPart(draft) : {}),
      ...(tags.length ? { tags } : {}),
      ...(draft.notes ? { notes: draft.notes } : {}),
      ...(Object.keys(fingerprint).length ? { fingerprint } : {}),
    };
  const initial = initialFields(profile);
  const proxyChanged =
    draft.proxyChoice !== initial.proxyChoice || draft.proxyUrl !== initial.proxyUrl || !!draft.proxyPassword;
  return {
    ...(draft.name !== initial.name ? { name: draft.name } : {}),
    ...(proxyChanged ? proxyPart(draft) : {}),
    ...(!same(tags, profile.tags) ? { tags } : {}),
    ...(draft.notes !== initial.notes ? { notes: draft.notes } : {}),
    ...(!same(fingerprint, fingerprintOf(fingerprintDraft(profile.fingerprint))) ? { fingerprint } : {}),
  };
}

/**
 * What is wrong with a typed proxy's password: lost when the popup closed (it is never kept), or given to a URL
 * without a user name.
 */
export function passwordProblem(draft: ProfileDraft, lost: readonly string[]): MessageName | undefined {
  if (draft.proxyChoice !== TYPED) return undefined;
  if (lost.includes('proxyPassword')) return 'passwordNotKept';
  const typed = parseProxyUrl(draft.proxyUrl);
  return draft.proxyPassword && !('error' in typed) && !typed.username ? 'passwordNeedsUser' : undefined;
}

/**
 * The saved proxies the Proxy list offers: those loaded, and the profile's own first when it is not among them
 * (the list loads a page of proxies), so that the list never shows blank.
 */
export function proxyChoices(
  proxies: readonly ProxyConfig[] | undefined,
  profile: Profile | undefined,
): { id: string; name: string }[] {
  const loaded = proxies?.map(({ id, name }) => ({ id, name })) ?? [];
  const own = profile?.proxy_id;
  if (!own || loaded.some(({ id }) => id === own)) return loaded;
  return [{ id: own, name: proxyText(profile, proxies) }, ...loaded];
}

/** Whether Match proxy can ask the service: only a saved proxy has a check of its own. */
export const matchesSavedProxy = (draft: ProfileDraft) =>
  draft.proxyChoice !== '' && draft.proxyChoice !== TYPED;
