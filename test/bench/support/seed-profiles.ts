/** Rows a seeding import sends at once. */
const SEED_ROWS = 2000;
/** Creates a service without an import (an older checkout, BEFORE=) is sent at once. */
const CREATES_AT_ONCE = 10;

export interface SeedTarget {
  name: string;
  origin: string;
  /** The key of the account that is seeded. */
  listKey: string;
  /** How many profiles the account holds. */
  profiles: number;
  /** The profile in the middle of the largest count seeded. */
  someProfileId: string | null;
}

/**
 * Creates profiles `Scale 00000`, `Scale 00001`, … until the list account holds `count`, by imports of a sheet, or
 * one by one on a service that has no import.
 */
export async function seed(target: SeedTarget, count: number): Promise<void> {
  for (let start = target.profiles; start < count; start += SEED_ROWS) {
    const indexes = Array.from({ length: Math.min(SEED_ROWS, count - start) }, (_, offset) => start + offset);
    const rows = indexes.map((index) => ({
      name: `Scale ${String(index).padStart(5, '0')}`,
      tags: [`batch-${index % 10}`],
      ...(index % 2 === 0 ? { proxy: 'http://user:secret@proxy.example:8080' } : {}),
    }));
    const ids = (await imported(target, rows)) ?? (await createdOneByOne(target, rows));
    const middle = Math.floor(count / 2) - start;
    if (middle >= 0 && middle < ids.length) target.someProfileId = ids[middle] ?? null;
  }
  target.profiles = count;
}

/** The new profiles' ids in the rows' order, or null when the service has no import. */
async function imported(target: SeedTarget, rows: object[]): Promise<string[] | null> {
  const response = await fetch(`${target.origin}/v1/profiles/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${target.listKey}`, 'Content-Type': 'application/x-ndjson' },
    body: rows.map((row) => JSON.stringify(row)).join('\n'),
  });
  if (response.status === 404 || response.status === 405) return null;
  const answer = (await response.json()) as { items: { ok: boolean; id?: string }[] };
  const ids = answer.items?.flatMap((item) => (item.ok && item.id ? [item.id] : []));
  if (response.status !== 200 || ids?.length !== rows.length)
    throw new Error(`seeding ${target.name}: ${JSON.stringify(answer).slice(0, 500)}`);
  return ids;
}

async function createdOneByOne(target: SeedTarget, rows: object[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < rows.length; start += CREATES_AT_ONCE) {
    const made = await Promise.all(
      rows.slice(start, start + CREATES_AT_ONCE).map(async (row) => {
        const response = await fetch(`${target.origin}/v1/profiles`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${target.listKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(row),
        });
        const answer = (await response.json()) as { id?: string };
        if (response.status !== 201 || !answer.id)
          throw new Error(`seeding ${target.name}: ${JSON.stringify(answer).slice(0, 500)}`);
        return answer.id;
      }),
    );
    ids.push(...made);
  }
  return ids;
}
