import { onTestFailed } from 'vitest';
import type { RandomSource } from '../../server/identity/random-source';

/**
 * The seed of a test's random draws: `SEED` from the environment, to replay a failure, else a new one. Called inside
 * a test, a failure of that test prints the seed and how to replay it.
 */
export function testSeed(): number {
  const given = process.env.SEED;
  const seed =
    given === undefined || given === '' ? Math.floor(Math.random() * 0x1_0000_0000) : Number(given);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 0x1_0000_0000)
    throw new Error(`SEED must be an integer in [0, 2^32), not ${given}`);
  onTestFailed(({ task }) => {
    const replay = `its random draws came from SEED=${seed}; replay with SEED=${seed} npx vitest run ${task.file.name}`;
    console.error(`${task.name}: ${replay}`);
    for (const error of task.result?.errors ?? []) error.message = `${error.message}\n(${replay})`;
  });
  return seed;
}

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
