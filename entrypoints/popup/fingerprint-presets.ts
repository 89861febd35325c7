import type { Fingerprint } from '../../lib/api/inputs/profiles';

/** The fingerprint fields as the profile form keeps them: text, as typed. */
export interface FingerprintDraft {
  userAgent: string;
  language: string;
  timezone: string;
  width: string;
  height: string;
}

type System = 'windows' | 'mac';

const SYSTEMS: Record<System, string> = {
  windows: 'Windows NT 10.0; Win64; x64',
  mac: 'Macintosh; Intel Mac OS X 10_15_7',
};

/** Common set-ups by the message key of their name: a desktop Chrome on a system, its language, zone and screen. */
export const FINGERPRINT_PRESETS = {
  presetUsWindows: {
    system: 'windows',
    language: 'en-US',
    timezone: 'America/New_York',
    screen: [1920, 1080],
  },
  presetUkMac: { system: 'mac', language: 'en-GB', timezone: 'Europe/London', screen: [1440, 900] },
  presetDeWindows: { system: 'windows', language: 'de-DE', timezone: 'Europe/Berlin', screen: [1366, 768] },
  presetJpMac: { system: 'mac', language: 'ja-JP', timezone: 'Asia/Tokyo', screen: [1512, 982] },
} as const satisfies Record<string, { system: System; language: string; timezone: string; screen: number[] }>;

export type PresetName = keyof typeof FINGERPRINT_PRESETS;

/**
 * A preset's fields. The user agent is Chrome's on the preset's system, of the version of the browser the person
 * runs (`ownUserAgent`); left empty when that is not Chrome, so that the session's browser presents its own.
 */
export function presetFields(name: PresetName, ownUserAgent: string): FingerprintDraft {
  const preset = FINGERPRINT_PRESETS[name];
  const major = /Chrome\/(\d+)\./.exec(ownUserAgent)?.[1];
  return {
    userAgent: major
      ? `Mozilla/5.0 (${SYSTEMS[preset.system]}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`
      : '',
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
