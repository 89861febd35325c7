import type { RandomSource } from '../../server/identity/random-source';

/** Mulberry32: numbers in [0, 1) as `Math.random` gives them, the same for the same seed. */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

let bytesDrawn = 0;

/**
 * `length` bytes that do not compress, each call other bytes, the same on every run: the content of files whose size
 * is what a test is about.
 */
export function incompressibleBytes(length: number): Buffer {
  bytesDrawn += 1;
  const random = seededRandom(bytesDrawn);
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}
