import { randomInt } from 'node:crypto';

/** Numbers in [0, 1), as `Math.random` gives them; tests pass a seeded one so that a draw can be replayed. */
export type RandomSource = () => number;

/**
 * `draw()` with `random` standing in for `Math.random`, or as it is without one: fingerprint-generator samples its
 * network with `Math.random` and takes no source of its own. `draw` is synchronous, so nothing else runs meanwhile.
 */
export function drawingWith<T>(random: RandomSource | undefined, draw: () => T): T {
  if (!random) return draw();
  const original = Math.random;
  Math.random = random;
  try {
    return draw();
  } finally {
    Math.random = original;
  }
}

/** A noise seed in [1, 2³² − 1): from `random` where given, else from the operating system's generator. */
export function noiseSeed(random?: RandomSource): number {
  return random ? 1 + Math.floor(random() * 0xffff_fffe) : randomInt(1, 0xffff_ffff);
}
