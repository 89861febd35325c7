/**
 * Varies, in place, the blended pixels of a `width`×`height` image (RGBA bytes read as little-endian words) that lie
 * `margin` or more pixels inside its edges (1: a read padded with its neighbours); pixels past the edges count as
 * transparent. A pixel is blended when it is opaque, lies strictly between two opposite opaque neighbours on the
 * line from one's colour to the other's, and two opaque pixels of its 3×3 neighbourhood are alike. Every test reads
 * colours without their lowest bits, the ones the noise sets, so varying a varied image changes nothing. Runs after
 * page scripts: plain arithmetic only, no global or method a page could replace.
 */
export function varyPixels(
  words: Uint32Array,
  width: number,
  height: number,
  margin: number,
  seed: number,
): boolean {
  // The helpers take all they use as arguments: a variable they shared with the loop would slow every pixel down.
  // Words are read as signed 32-bit integers, the kind the engine computes with fastest; 0xfffefefe | 0 is the mask
  // that leaves out the lowest bits.
  const at = (image: Uint32Array, columns: number, rows: number, x: number, y: number) =>
    x < 0 || y < 0 || x >= columns || y >= rows ? 0 : (image[y * columns + x] as number) | 0;
  /**
   * `word` inside the box `one` and `other` span, channel by channel (most pixels of a dithered gradient are not):
   * the 7-bit channels side by side, each subtraction's borrow caught by its guard bit.
   */
  const inside = (word: number, one: number, other: number) => {
    const value = (word >>> 1) & 0x7f7f7f;
    const low = (one >>> 1) & 0x7f7f7f;
    const high = (other >>> 1) & 0x7f7f7f;
    const aboveLow = ((value | 0x808080) - low) & 0x808080;
    const aboveHigh = ((value | 0x808080) - high) & 0x808080;
    const belowLow = ((low | 0x808080) - value) & 0x808080;
    const belowHigh = ((high | 0x808080) - value) & 0x808080;
    return ((aboveLow & belowHigh) | (aboveHigh & belowLow)) === 0x808080;
  };
  /** `word` strictly between `one` and `other`, on their line within rounding. */
  const between = (word: number, one: number, other: number) => {
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
    if (mainSpan > 0 ? mainOff <= 0 || mainOff >= mainSpan : mainOff >= 0 || mainOff <= mainSpan)
      return false;
    for (let shift = 1; shift < 24; shift += 8) {
      const span = ((other >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
      const off = ((word >>> shift) & 0x7f) - ((one >>> shift) & 0x7f);
      const cross = off * mainSpan - mainOff * span;
      if ((cross < 0 ? -cross : cross) > 2 * (mainSpan < 0 ? -mainSpan : mainSpan)) return false;
    }
    return true;
  };
  /** Two opaque pixels alike among the 3×3 around (x, y): drawn shapes, not a grid of unrelated colours. */
  const twoAlike = (image: Uint32Array, columns: number, rows: number, x: number, y: number) => {
    for (let first = 0; first < 9; first += 1) {
      const one = at(image, columns, rows, x + (first % 3) - 1, y + ((first / 3) | 0) - 1);
      if (one >>> 24 !== 0xff) continue;
      for (let second = first + 1; second < 9; second += 1) {
        const other = at(image, columns, rows, x + (second % 3) - 1, y + ((second / 3) | 0) - 1);
        if (((one ^ other) & (0xfffefefe | 0)) === 0) return true;
      }
    }
    return false;
  };
  let changed = false;
  for (let y = margin; y < height - margin; y += 1)
    for (let x = margin, index = y * width + margin; x < width - margin; x += 1, index += 1) {
      const word = (words[index] as number) | 0;
      if (word >>> 24 !== 0xff) continue;
      // Most pixels are like a neighbour on each line: nothing more to test.
      const left = x > 0 ? (words[index - 1] as number) | 0 : 0;
      const up = y > 0 ? (words[index - width] as number) | 0 : 0;
      if (((word ^ left) & (0xfffefefe | 0)) === 0 && ((word ^ up) & (0xfffefefe | 0)) === 0) continue;
      // Strictly between needs two neighbours two apart in a channel's upper bits: their bits past the lowest two
      // differ (a dithered gradient's steps mostly do not).
      const right = x < width - 1 ? (words[index + 1] as number) | 0 : 0;
      const down = y < height - 1 ? (words[index + width] as number) | 0 : 0;
      const across =
        ((left ^ right) & 0xfcfcfc) !== 0 && inside(word, left, right) && between(word, left, right);
      if (!across && !(((up ^ down) & 0xfcfcfc) !== 0 && inside(word, up, down) && between(word, up, down)))
        continue;
      if (!twoAlike(words, width, height, x, y)) continue;
      let hash = ((word & 0xfefefe) ^ seed) >>> 0;
      hash = ((hash * 0x9e3b5) ^ (hash >>> 15) ^ seed) >>> 0;
      hash = ((hash * 0x5bd1f) ^ (hash >>> 13)) >>> 0;
      const shift = ((hash >>> 8) % 3) * 8;
      const noisy = (word & ~(1 << shift)) | (((hash >>> 4) & 1) << shift);
      if (noisy !== word) {
        words[index] = noisy;
        changed = true;
      }
    }
  return changed;
}
