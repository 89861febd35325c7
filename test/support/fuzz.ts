/** Seeded random choices and the bad values a fuzz sends: wrong types, huge and deep values, U+0000, bad UTF-8. */
import { seededRandom } from './seeded-random';

/** Seeded choices: the same seed gives the same requests. */
export function seeded(seed: number): { pick<T>(items: readonly T[], count: number): T[] } {
  const next = seededRandom(seed);
  return {
    pick(items, count) {
      const pool = [...items];
      const chosen = [];
      while (chosen.length < count && pool.length > 0)
        chosen.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as (typeof items)[number]);
      return chosen;
    },
  };
}

const nested = (levels: number, inner: unknown = 'x'): unknown => {
  let value = inner;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
};

/** Values a field may be sent instead of what it takes. */
export const BAD_VALUES: readonly unknown[] = [
  12345,
  -1,
  1e308,
  true,
  null,
  [],
  {},
  '',
  'a\u0000b',
  { 'k\u0000': 1 },
  '\ud800 lone surrogate',
  'a'.repeat(100_000),
  '😀'.repeat(30_000),
  nested(60),
  nested(80),
  Array.from({ length: 3000 }, () => ({})),
  Array.from({ length: 2000 }, (_, index) => `tag${index}`),
];

const bytes = (text: string) => new TextEncoder().encode(text);

/** Whole bodies that are not the JSON a route takes. */
export const BAD_BODIES: readonly Uint8Array[] = [
  Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // {"n":"\xff\xfe"}
  bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  bytes('{"name":'),
  bytes('"text"'),
  bytes('{"\\u0000":"\\u0000"}'),
  bytes(JSON.stringify(nested(65, {}))),
];

/** Text put in a path segment or a query value instead of an id or a word. */
export const BAD_PARAMS: readonly string[] = [
  'prf_unknown',
  'a%00b',
  'x'.repeat(4000),
  '%ff%fe',
  '..%2F..%2Fetc',
  '%F0%9F%98%80'.repeat(200),
];
