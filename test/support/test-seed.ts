import { onTestFailed } from 'vitest';

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
