import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';

/**
 * Runs a WXT command quietly (Rollup's warnings about comments in zod are noise) and throws with its output
 * when it fails.
 */
export function runWxt(args: string[]): void {
  try {
    execFileSync(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/wxt/bin/wxt.mjs'), ...args], {
      cwd: PROJECT_ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`wxt ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}
