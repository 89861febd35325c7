/** The most of a page's title an answer carries: the page writes it, and it can be any length. */
export const MAX_TITLE_CHARS = 1_000;
/** The most of an address an answer carries (a `data:` address can be megabytes). */
export const MAX_URL_CHARS = 2_000;

/** A page's text cut to `max` characters, saying where and how long it was, so the model knows it is partial. */
function cut(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${what} cut: ${text.length.toLocaleString('en')} characters, the first ${max.toLocaleString('en')} shown)`;
}

export const cutTitle = (title: string): string => cut(title, MAX_TITLE_CHARS, 'title');
export const cutUrl = (url: string): string => cut(url, MAX_URL_CHARS, 'address');
