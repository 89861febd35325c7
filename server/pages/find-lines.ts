/** The most a browser_find answer holds. */
export const MAX_FIND_CHARS = 3_000;
/** How many lines of the match's parent show what is around it (a row's other cells and their buttons). */
const LINES_AROUND = 8;

const indentOf = (line: string) => line.length - line.trimStart().length;

/** A line and the first lines under it, as indices of `lines`. */
function subtree(lines: string[], at: number): number[] {
  const top = indentOf(lines[at] as string);
  const block = [at];
  for (let i = at + 1; i < lines.length && block.length <= LINES_AROUND; i += 1) {
    if (indentOf(lines[i] as string) <= top) break;
    block.push(i);
  }
  return block;
}

/**
 * A match's block: the match and what it holds when it holds anything (a row and its cells), else its parent and
 * what that holds (a cell's row, with the row's buttons), the match always among them.
 */
function blockOf(lines: string[], at: number): number[] {
  const own = indentOf(lines[at] as string);
  if (indentOf(lines[at + 1] ?? '') > own) return subtree(lines, at);
  let parent = at;
  for (let i = at - 1; i >= 0 && parent === at; i -= 1) if (indentOf(lines[i] as string) < own) parent = i;
  const block = subtree(lines, parent);
  return block.includes(at) ? block : [parent, at];
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
      : `${matches.length} ${matches.length === 1 ? 'line holds' : 'lines hold'} ${JSON.stringify(text)}; act on their refs.` +
        (left > 0
          ? ` ${left} left out: search for longer text, or read a part with browser_snapshot ref.`
          : '');
  return { text: [heading, ...blocks].join('\n---\n'), matches: matches.length };
}
