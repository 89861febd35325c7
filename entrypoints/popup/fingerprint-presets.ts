import type { Fingerprint } from '../../lib/api/inputs/profiles';

/** The fingerprint fields as the profile form keeps them: text, as typed. */
export interface FingerprintDraft {
  userAgent: string;
  language: string;
  timezone: string;
  width: string;
  height: string;
}

/**
 * Common locations by the message key of their name: a language, its time zone and a window size. No user agent:
 * the profile's identity presents one that agrees with everything else a page can read.
 */
export const FINGERPRINT_PRESETS = {
  presetUs: { language: 'en-US', timezone: 'America/New_York', screen: [1920, 1080] },
  presetUk: { language: 'en-GB', timezone: 'Europe/London', screen: [1440, 900] },
  presetDe: { language: 'de-DE', timezone: 'Europe/Berlin', screen: [1366, 768] },
  presetJp: { language: 'ja-JP', timezone: 'Asia/Tokyo', screen: [1512, 982] },
} as const satisfies Record<string, { language: string; timezone: string; screen: number[] }>;

export type PresetName = keyof typeof FINGERPRINT_PRESETS;

/** A preset's fields; the user agent is cleared, so that the identity's is presented. */
export function presetFields(name: PresetName): FingerprintDraft {
  const preset = FINGERPRINT_PRESETS[name];
  return {
    userAgent: '',
    language: preset.language,
    timezone: preset.timezone,
    width: String(preset.screen[0]),
    height: String(preset.screen[1]),
  };
}

/** The fingerprint the fields give: only what is filled in; the screen when both sides are. */
export function fingerprintOf(draft: FingerprintDraft): Fingerprint {
  const text = (value: string) => value.trim() || undefined;
  const screen = draft.width.trim() && draft.height.trim();
  const fields = {
    user_agent: text(draft.userAgent),
    language: text(draft.language),
    timezone: text(draft.timezone),
    screen: screen ? { width: Number(draft.width), height: Number(draft.height) } : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The fields of a saved fingerprint. */
export function fingerprintDraft(fingerprint: Fingerprint = {}): FingerprintDraft {
  return {
    userAgent: fingerprint.user_agent ?? '',
    language: fingerprint.language ?? '',
    timezone: fingerprint.timezone ?? '',
    width: fingerprint.screen ? String(fingerprint.screen.width) : '',
    height: fingerprint.screen ? String(fingerprint.screen.height) : '',
  };
}
