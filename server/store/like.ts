/** `text` as a LIKE pattern matches it literally (with `escape '\\'`): its `%`, `_` and `\` escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
