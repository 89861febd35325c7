import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';
import { EXTENSION_ZIPS, isBuilt } from './fresh';

/**
 * Runs a WXT command quietly (Rollup's warnings about comments in zod are noise) and throws with its output
 * when it fails.
 */
export function runWxt(args: string[]): void {
  try {
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/wxt/bin/wxt.mjs'), ...args], {
      cwd: PROJECT_ROOT,
      stdio: 'pipe',
      // A production build whoever asks: Vitest's NODE_ENV (test) would keep Preact's development branches.
      env: { ...process.env, NODE_ENV: 'production' },
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`wxt ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

/**
 * Builds and zips the extension for Chrome and Firefox, each unless its package is newer than every source: the
 * end-to-end tests load these builds, and the size check and `npm start` then use them as they are.
 */
export function zipExtension(): void {
  if (!isBuilt(EXTENSION_ZIPS.chrome)) runWxt(['zip']);
  if (!isBuilt(EXTENSION_ZIPS.firefox)) runWxt(['zip', '-b', 'firefox', '--mv3']);
}
