import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDashboard } from '../../scripts/dashboard';
import { DASHBOARD_BUILD, isBuilt } from '../../scripts/fresh';
import { zipExtension } from '../../scripts/wxt';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the popup's screenshots go: SCREENSHOTS_DIR (`npm run screenshots`), else a temporary folder. */
    screenshotsDir: string;
  }
}

/**
 * Builds the extension once for every e2e file, as it ships (.output/chrome-mv3 and .output/firefox-mv3, and their
 * store packages, which the size check then reads), and the dashboard's pages (.output/dashboard, which services
 * serve), and gives the screenshots a folder: a test run leaves the tracked ones in docs/screenshots alone.
 */
export default function setup(project: TestProject): () => void {
  zipExtension();
  if (!isBuilt(DASHBOARD_BUILD)) buildDashboard();
  const chosen = process.env.SCREENSHOTS_DIR;
  const folder = chosen ? path.resolve(chosen) : mkdtempSync(path.join(tmpdir(), 'pp-screenshots-'));
  project.provide('screenshotsDir', folder);
  return () => {
    if (!chosen) rmSync(folder, { recursive: true, force: true });
  };
}
