import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';

/**
 * Builds the dashboard's pages into .output/dashboard (`npm run build:dashboard`), quietly, throwing with
 * Vite's output when it fails. npm start and the tests run it, so the service always serves the current pages.
 */
export function buildDashboard(): void {
  try {
    execFileSync(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'node_modules/vite/bin/vite.js'),
        'build',
        '--config',
        'dashboard/vite.config.ts',
      ],
      // A production build whoever asks: Vitest's NODE_ENV (test) would keep Preact's development branches.
      { cwd: PROJECT_ROOT, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`Building the dashboard failed:\n${stdout}${stderr}`);
  }
}
