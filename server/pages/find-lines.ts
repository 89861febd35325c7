/** The most a browser_find answer holds. */
export const MAX_FIND_CHARS = 3_000;
/** How many lines under a match show what it holds. */
const LINES_UNDER = 2;
/** How many of a match's ancestors show where it is. */
const ANCESTORS = 2;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** A match's block: its nearest ancestors, itself, and its first lines under it, as indices of `lines`. */
function blockOf(lines: string[], at: number): number[] {
  const own = indentOf(lines[at] as string);
  const above: number[] = [];
  let indent = own;
  for (let i = at - 1; i >= 0 && above.length < ANCESTORS; i -= 1)
    if (indentOf(lines[i] as string) < indent) {
      above.unshift(i);
      indent = indentOf(lines[i] as string);
    }
  const under: number[] = [];
  for (let i = at + 1; i < lines.length && under.length < LINES_UNDER; i += 1) {
    if (indentOf(lines[i] as string) <= own) break;
    under.push(i);
  }
  return [...above, at, ...under];
}

/**
 * The lines of an accessibility snapshot whose name or text holds `text` (in any case), each with its nearest
 * ancestors and the first lines under it, within MAX_FIND_CHARS, and a sentence for the matches left out.
 */
export function findLines(snapshot: string, text: string): { text: string; matches: number } {
  const lines = snapshot.split('\n');
  const wanted = text.toLowerCase();
  const matches = lines.flatMap((line, index) => (line.toLowerCase().includes(wanted) ? [index] : []));
  const shown = new Set<number>();
  const blocks: string[] = [];
  let size = 0;
  let listed = 0;
  for (const at of matches) {
    if (shown.has(at)) {
      listed += 1;
      continue;
    }
    const block = blockOf(lines, at).filter((index) => !shown.has(index));
    const body = block.map((index) => lines[index]).join('\n');
    if (size + body.length > MAX_FIND_CHARS - 200) break;
    for (const index of block) shown.add(index);
    blocks.push(body);
    size += body.length + 5;
    listed += 1;
  }
  const left = matches.length - listed;
  const heading =
    matches.length === 0
      ? `No element's name or text holds ${JSON.stringify(text)}.`
      : `${matches.length} line${matches.length === 1 ? '' : 's'} hold ${JSON.stringify(text)}; act on their refs.` +
        (left > 0
          ? ` ${left} left out: search for longer text, or read a part with browser_snapshot ref.`
          : '');
  return { text: [heading, ...blocks].join('\n---\n'), matches: matches.length };
}
