// Runs after page scripts: plain arithmetic only, no global or method a page could replace. Words are read as signed
// 32-bit integers, the kind the engine computes with fastest; 0xfffefefe | 0 is the mask that leaves out the lowest
// bits. The helpers are functions of their own, not closures made at each call: the engine inlines a function it
// has seen called, and a new closure at each call undid that (a 1000×1000 read took twice as long).

function pixelAt(image: Uint32Array, columns: number, rows: number, x: number, y: number): number {
  return x < 0 || y < 0 || x >= columns || y >= rows ? 0 : (image[y * columns + x] as number) | 0;
}

/**
 * `word` inside the box `one` and `other` span, channel by channel (most pixels of a dithered gradient are not):
 * the 7-bit channels side by side, each subtraction's borrow caught by its guard bit.
 */
function insideBox(word: number, one: number, other: number): boolean {
  const value = (word >>> 1) & 0x7f7f7f;
  const low = (one >>> 1) & 0x7f7f7f;
  const high = (other >>> 1) & 0x7f7f7f;
  const aboveLow = ((value | 0x808080) - low) & 0x808080;
  const aboveHigh = ((value | 0x808080) - high) & 0x808080;
  const belowLow = ((low | 0x808080) - value) & 0x808080;
  const belowHigh = ((high | 0x808080) - value) & 0x808080;
  return ((aboveLow & belowHigh) | (aboveHigh & belowLow)) === 0x808080;
}

/**
 * What `strictlyBetween` asks first, cheaply: `one` and `other` two apart in a channel's upper bits (their bits past
 * the lowest two differ: a dithered gradient's steps mostly do not), `word` unlike both and inside their box.
 */
function roughlyBetween(word: number, one: number, other: number): boolean {
  return (
    ((one ^ other) & 0xfcfcfc) !== 0 &&
    ((word ^ one) & 0xfefefe) !== 0 &&
    ((word ^ other) & 0xfefefe) !== 0 &&
    insideBox(word, one, other)
  );
}

/** `word` strictly between `one` and `other`, on their line within rounding. */
function strictlyBetween(word: number, one: number, other: number): boolean {
  if (one >>> 24 !== 0xff || other >>> 24 !== 0xff) return false;
  const same = 0xfffefefe | 0;
  if (((word ^ one) & same) === 0 || ((word ^ other) & same) === 0 || ((one ^ other) & same) === 0)
    return false;
  let mainOff = 0;
  let mainSpan = 0;
  for (let shift = 1; shift < 24; shift += 8) {
    const span = ((other >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
    if ((span < 0 ? -span : span) > (mainSpan < 0 ? -mainSpan : mainSpan)) {
      mainSpan = span;
      mainOff = ((word >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
    }
  }
  if (mainSpan > 0 ? mainOff <= 0 || mainOff >= mainSpan : mainOff >= 0 || mainOff <= mainSpan) return false;
  for (let shift = 1; shift < 24; shift += 8) {
    const span = ((other >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
    const off = ((word >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
    const cross = off * mainSpan - mainOff * span;
    if ((cross < 0 ? -cross : cross) > 2 * (mainSpan < 0 ? -mainSpan : mainSpan)) return false;
  }
  return true;
}

/** Two opaque pixels alike among the 3×3 around (x, y): drawn shapes, not a grid of unrelated colours. */
function twoAlike(image: Uint32Array, columns: number, rows: number, x: number, y: number): boolean {
  for (let first = 0; first < 9; first += 1) {
    const one = pixelAt(image, columns, rows, x + (first % 3) - 1, y + ((first / 3) | 0) - 1);
    if (one >>> 24 !== 0xff) continue;
    for (let second = first + 1; second < 9; second += 1) {
      const other = pixelAt(image, columns, rows, x + (second % 3) - 1, y + ((second / 3) | 0) - 1);
      if (((one ^ other) & (0xfffefefe | 0)) === 0) return true;
    }
  }
  return false;
}

/** `word` with the noise in it where it is blended between its neighbours. */
function noisyPixel(
  image: Uint32Array,
  columns: number,
  rows: number,
  x: number,
  y: number,
  seed: number,
  word: number,
  left: number,
  right: number,
  up: number,
  down: number,
): number {
  if (word >>> 24 !== 0xff) return word;
  const across = roughlyBetween(word, left, right) && strictlyBetween(word, left, right);
  if (!across && !(roughlyBetween(word, up, down) && strictlyBetween(word, up, down))) return word;
  if (!twoAlike(image, columns, rows, x, y)) return word;
  let hash = ((word & 0xfefefe) ^ seed) >>> 0;
  hash = ((hash * 0x9e3b5) ^ (hash >>> 15) ^ seed) >>> 0;
  hash = ((hash * 0x5bd1f) ^ (hash >>> 13)) >>> 0;
  const shift = ((hash >>> 8) % 3) * 8;
  return (word & ~(1 << shift)) | (((hash >>> 4) & 1) << shift);
}

/**
 * Varies, in place, the blended pixels of a `width`×`height` image (RGBA bytes read as little-endian words) that lie
 * `margin` (0 or 1) or more pixels inside its edges (1: a read padded with its neighbours); pixels past the edges
 * count as transparent. A pixel is blended when it is opaque, lies strictly between two opposite opaque neighbours
 * on the line from one's colour to the other's, and two opaque pixels of its 3×3 neighbourhood are alike. Every test
 * reads colours without their lowest bits, the ones the noise sets, so varying a varied image changes nothing and
 * the order pixels are varied in does not matter.
 */
export function varyPixels(
  words: Uint32Array,
  width: number,
  height: number,
  margin: number,
  seed: number,
): boolean {
  let changed = false;
  // Inside the edges every neighbour is there. One test passes over the four pixels in five with no two opposite
  // neighbours apart (a gradient's steps mostly), the rough one over most of the rest, before the whole test.
  for (let y = 1; y < height - 1; y += 1)
    for (let index = y * width + 1, end = index + width - 2; index < end; index += 1) {
      const left = (words[index - 1] as number) | 0;
      const right = (words[index + 1] as number) | 0;
      const up = (words[index - width] as number) | 0;
      const down = (words[index + width] as number) | 0;
      if ((((left ^ right) | (up ^ down)) & 0xfcfcfc) === 0) continue;
      const word = (words[index] as number) | 0;
      if (!roughlyBetween(word, left, right) && !roughlyBetween(word, up, down)) continue;
      const noisy = noisyPixel(words, width, height, index - y * width, y, seed, word, left, right, up, down);
      if (noisy !== word) {
        words[index] = noisy;
        changed = true;
      }
    }
  if (margin > 0) return changed;
  // The edges, their missing neighbours transparent.
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += y === 0 || y === height - 1 || width < 2 ? 1 : width - 1) {
      const word = pixelAt(words, width, height, x, y);
      const noisy = noisyPixel(
        words,
        width,
        height,
        x,
        y,
        seed,
        word,
        pixelAt(words, width, height, x - 1, y),
        pixelAt(words, width, height, x + 1, y),
        pixelAt(words, width, height, x, y - 1),
        pixelAt(words, width, height, x, y + 1),
      );
      if (noisy !== word) {
        words[y * width + x] = noisy;
        changed = true;
      }
    }
  return changed;
}

/** The functions `varyPixels` runs, for the injected script to carry as source beside it. */
export const blendedPixelsParts = [
  pixelAt,
  insideBox,
  roughlyBetween,
  strictlyBetween,
  twoAlike,
  noisyPixel,
  varyPixels,
];
