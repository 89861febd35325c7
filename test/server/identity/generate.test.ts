import { describe, expect, it } from 'vitest';
import { generateIdentity } from '../../../server/identity/generate';
import { drawingWith } from '../../../server/identity/random-source';
import { seededRandom } from '../../support/seeded-random';
import { testSeed } from '../../support/test-seed';

describe('an identity drawn from a given random source', () => {
  it('is the same for the same seed, device and noise seed alike, and another for another seed', () => {
    const seed = testSeed();
    const once = generateIdentity('desktop', seededRandom(seed));
    expect(generateIdentity('desktop', seededRandom(seed))).toEqual(once);
    expect(generateIdentity('desktop', seededRandom(seed + 1)).seed).not.toBe(once.seed);
  });

  it('leaves Math.random as it was, after a draw and after a draw that throws', () => {
    const original = Math.random;
    generateIdentity(undefined, seededRandom(testSeed()));
    expect(Math.random).toBe(original);
    expect(() =>
      drawingWith(
        () => 0.5,
        () => {
          throw new Error(`drawn ${Math.random()}`);
        },
      ),
    ).toThrow('drawn 0.5');
    expect(Math.random).toBe(original);
  });
});
