import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDashboard } from '../../scripts/dashboard';
import { DASHBOARD_BUILD, isBuilt } from '../../scripts/fresh';
import { runWxt } from '../../scripts/wxt';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the popup's screenshots go: SCREENSHOTS_DIR (`npm run screenshots`), else a temporary folder. */
    screenshotsDir: string;
  }
}

/**
 * Builds the extension once for every e2e file, into folders of their own (.output/chrome-mv3-e2e and
 * .output/firefox-mv3-e2e), and the dashboard's pages (.output/dashboard, which services serve), and gives the screenshots a folder: a test run leaves the tracked ones in
 * docs/screenshots alone.
 */
export default function setup(project: TestProject): () => void {
  runWxt(['build', '--mode', 'e2e']);
  runWxt(['build', '-b', 'firefox', '--mv3', '--mode', 'e2e']);
  if (!isBuilt(DASHBOARD_BUILD)) buildDashboard();
  const chosen = process.env.SCREENSHOTS_DIR;
  const folder = chosen ? path.resolve(chosen) : mkdtempSync(path.join(tmpdir(), 'pp-screenshots-'));
  project.provide('screenshotsDir', folder);
  return () => {
    if (!chosen) rmSync(folder, { recursive: true, force: true });
  };
}
