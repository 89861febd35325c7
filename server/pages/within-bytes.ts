/**
 * Text over `maxBytes` cut at a line where one is near the end (else within the line, so that one huge line still
 * shows its start), ending with `note`, which says what was left out and how to read it.
 */
export function withinBytes(text: string, maxBytes: number, note: string): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const room = Math.max(0, maxBytes - Buffer.byteLength(note) - 1);
  // A cut inside a character leaves U+FFFD, which is dropped.
  let cut = Buffer.from(text)
    .subarray(0, room)
    .toString()
    .replace(/\uFFFD$/, '');
  const lastLine = cut.lastIndexOf('\n');
  if (lastLine > cut.length / 2) cut = cut.slice(0, lastLine);
  return `${cut}\n${note}`;
}
