import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newId } from '../core/ids';

const NODE_ID = /^nod_[0-9A-Za-z]{20}$/;

/**
 * This process's node id, kept in its data dir: a restart is the same node, so it takes back (and stops) the
 * sessions its previous run left, instead of waiting for another node to declare it lost.
 */
export function nodeIdOf(dataDir: string): string {
  const file = path.join(dataDir, 'node-id');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (NODE_ID.test(kept)) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = newId('nod');
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
