// Runs after page scripts: plain arithmetic only, no global or method a page could replace. Words are read as signed
// 32-bit integers, the kind the engine computes with fastest; 0xfffefefe | 0 is the mask that leaves out the lowest
// bits. The helpers are functions of their own, not closures made at each call: the engine inlines a function it
// has seen called, and a new closure at each call undid that (a 1000×1000 read took twice as long).

function pixelAt(image: Uint32Array, columns: number, rows: number, x: number, y: number): number {
  return x < 0 || y < 0 || x >= columns || y >= rows ? 0 : (image[y * columns + x] as number) | 0;
}

/**
 * The upper 7 bits of each channel plus one (the top byte left out): two colours two or more apart in a channel's
 * upper 7 bits fall in different pairs of this and of the plain upper bits (`& 0xfcfcfc`) alike, where a dithered
 * gradient's neighbours, one apart, differ in at most one of the two.
 */
function oddPairs(word: number): number {
  return ((word >>> 1) | 0x808080) - 0x010101;
}

/**
 * `one` and `other` apart by two or more in some channel's upper 7 bits, as a colour strictly between them needs;
 * cheap enough for every candidate, in a dithered gradient rarely true.
 */
function apart(one: number, other: number): boolean {
  return ((one ^ other) & 0xfcfcfc) !== 0 && ((oddPairs(one) ^ oddPairs(other)) & 0xfefefe) !== 0;
}

function unlike(word: number, other: number): boolean {
  return ((word ^ other) & 0xfefefe) !== 0;
}

/**
 * What the whole test asks first, across or along, cheaply: the opposite neighbours apart, `word` unlike both (at
 * a sharp edge it is like one). The scan asks `mayVary` only where a pair differs past its lowest two bits, a test
 * it writes out itself: it stays fast whatever the engine inlines.
 */
function mayVary(word: number, left: number, right: number, up: number, down: number): boolean {
  return (
    (apart(left, right) && unlike(word, left) && unlike(word, right)) ||
    (apart(up, down) && unlike(word, up) && unlike(word, down))
  );
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
 * What `strictlyBetween` asks first, cheaply: `one` and `other` apart, `word` unlike both and inside their box.
 */
function roughlyBetween(word: number, one: number, other: number): boolean {
  return apart(one, other) && unlike(word, one) && unlike(word, other) && insideBox(word, one, other);
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
  // Inside the edges each pixel is read directly, its index one of the centre's plus an offset.
  const inside = x > 0 && y > 0 && x < columns - 1 && y < rows - 1;
  const centre = y * columns + x;
  for (let first = 0; first < 8; first += 1) {
    const column = (first % 3) - 1;
    const row = ((first / 3) | 0) - 1;
    const one = inside
      ? (image[centre + row * columns + column] as number) | 0
      : pixelAt(image, columns, rows, x + column, y + row);
    if (one >>> 24 !== 0xff) continue;
    for (let second = first + 1; second < 9; second += 1) {
      const across = (second % 3) - 1;
      const along = ((second / 3) | 0) - 1;
      const other = inside
        ? (image[centre + along * columns + across] as number) | 0
        : pixelAt(image, columns, rows, x + across, y + along);
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
 * Where the whole test may pass, from position `from` on in rows `y` and `y + 1` inside the edges: a pixel whose
 * opposite neighbours are apart, across or along (in a dithered gradient, one in twenty). A position is a pixel's
 * index times two, plus one in row `y + 1`; -1 past the end. The two rows are read together, four reads for two
 * pixels. The loop stays this small, the whole test out of it: the engine keeps its values in registers.
 */
function nextCandidate(words: Uint32Array, width: number, y: number, from: number): number {
  let index = from >> 1;
  const end = (y + 1) * width - 1;
  if ((from & 1) !== 0) {
    const below = index + width;
    const word = (words[below] as number) | 0;
    const left = (words[below - 1] as number) | 0;
    const right = (words[below + 1] as number) | 0;
    if (mayVary(word, left, right, (words[index] as number) | 0, (words[below + width] as number) | 0))
      return from;
    index += 1;
  }
  if (index >= end) return -1;
  let left = (words[index - 1] as number) | 0;
  let word = (words[index] as number) | 0;
  let belowLeft = (words[index + width - 1] as number) | 0;
  let below = (words[index + width] as number) | 0;
  for (; index < end; index += 1) {
    const above = (words[index - width] as number) | 0;
    const right = (words[index + 1] as number) | 0;
    const belowRight = (words[index + width + 1] as number) | 0;
    const twoBelow = (words[index + 2 * width] as number) | 0;
    if ((((left ^ right) | (above ^ below)) & 0xfcfcfc) !== 0 && mayVary(word, left, right, above, below))
      return index * 2;
    if (
      (((belowLeft ^ belowRight) | (word ^ twoBelow)) & 0xfcfcfc) !== 0 &&
      mayVary(below, belowLeft, belowRight, word, twoBelow)
    )
      return index * 2 + 1;
    left = word;
    word = right;
    belowLeft = below;
    below = belowRight;
  }
  return -1;
}

/** Varies, in place, the pixel at `index` where it is blended, its neighbours past the edges transparent. */
function varyAt(words: Uint32Array, width: number, height: number, index: number, seed: number): boolean {
  const y = (index / width) | 0;
  const x = index - y * width;
  const word = (words[index] as number) | 0;
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
  if (noisy === word) return false;
  words[index] = noisy;
  return true;
}

/** Varies, in place, the blended pixels of rows `y` and `y + 1` inside the edges. */
function varyRowPair(words: Uint32Array, width: number, height: number, y: number, seed: number): boolean {
  let changed = false;
  const first = (y * width + 1) * 2;
  for (let at = nextCandidate(words, width, y, first); at >= 0; at = nextCandidate(words, width, y, at + 1)) {
    const row = y + (at & 1);
    const index = (at >> 1) + (at & 1) * width;
    const word = (words[index] as number) | 0;
    const left = (words[index - 1] as number) | 0;
    const right = (words[index + 1] as number) | 0;
    const up = (words[index - width] as number) | 0;
    const down = (words[index + width] as number) | 0;
    const x = index - row * width;
    const noisy = noisyPixel(words, width, height, x, row, seed, word, left, right, up, down);
    if (noisy !== word) {
      words[index] = noisy;
      changed = true;
    }
  }
  return changed;
}

/** Varies, in place, the pixels from index `from` to `to`, `step` apart. */
function varyRow(
  words: Uint32Array,
  width: number,
  height: number,
  from: number,
  to: number,
  step: number,
  seed: number,
): boolean {
  let changed = false;
  for (let index = from; index < to; index += step)
    if (varyAt(words, width, height, index, seed)) changed = true;
  return changed;
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
  // Inside the edges, two rows at a time; the rest (edges, a row left over) pixel by pixel. No loop here runs
  // inside another: the engine compiles a long loop while it runs, and leaving an inner loop compiled so threw that
  // code away at every row of the first reads.
  let paired = 1;
  for (; paired + 2 < height; paired += 2)
    if (varyRowPair(words, width, height, paired, seed)) changed = true;
  for (let y = margin; y < height - margin; y += 1) {
    const whole = y === 0 || y === height - 1 || y >= paired;
    const row = y * width;
    const end = row + width;
    if (whole && varyRow(words, width, height, row + margin, end - margin, 1, seed)) changed = true;
    else if (
      !whole &&
      margin === 0 &&
      varyRow(words, width, height, row, end, width < 2 ? 1 : width - 1, seed)
    )
      changed = true;
  }
  return changed;
}

/** The functions `varyPixels` runs, for the injected script to carry as source beside it. */
export const blendedPixelsParts = [
  pixelAt,
  oddPairs,
  apart,
  unlike,
  mayVary,
  insideBox,
  roughlyBetween,
  strictlyBetween,
  twoAlike,
  noisyPixel,
  nextCandidate,
  varyAt,
  varyRowPair,
  varyRow,
  varyPixels,
];
