/**
 * The most any text the service stores or sends on its own account may weigh, as UTF-8: a run's or a step's
 * error, a webhook receiver's answer, a problem's detail. A few KB say everything a person reads; a page's
 * thrown 30 MB string would otherwise be stored whole and sent again in every listing and event.
 */
export const MAX_TEXT_BYTES = 4096;

const CUT_MARK = '… [cut]';

/**
 * `text` if it weighs at most `maxBytes` as UTF-8, else its start followed by "… [cut]", the whole within
 * `maxBytes` and no character split.
 */
export function boundedText(text: string, maxBytes = MAX_TEXT_BYTES): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes, so short texts are not even counted.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return text;
  const room = Math.max(0, maxBytes - Buffer.byteLength(CUT_MARK));
  const head = Buffer.from(text.slice(0, room)).subarray(0, room).toString('utf8');
  // A character the byte cut split decodes as U+FFFD: it goes.
  return `${head.replace(/\uFFFD$/, '')}${CUT_MARK}`;
}

/**
 * Bidirectional overrides and isolates, marks, and C0 and C1 control characters: a page's title holding U+202E
 * shows its words reversed, an ESC can drive a terminal that prints it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes.
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A page's title or address as shown to people: without characters that reorder or control what shows. */
export function shownText(text: string): string {
  return text.replace(UNSHOWABLE, '');
}
