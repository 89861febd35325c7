/** What every API key looks like: `pp_live_` and 32 base62 characters (~190 bits), recognisable by scanners and people. */
export const KEY_MARKER = 'pp_live_';
export const KEY_RANDOM_LENGTH = 32;
const KEY_SHAPE = new RegExp(`^${KEY_MARKER}[0-9A-Za-z]{${KEY_RANDOM_LENGTH}}$`);

/** Whether `text` has a key's shape: anything else is refused before a request is spent on it. */
export function isWellFormedKey(text: string): boolean {
  return KEY_SHAPE.test(text);
}
