/**
 * `npm run lint:firefox`: builds the Firefox package (unless its build is newer than its sources, as after
 * `npm run test:size` in `npm test`) and checks it with `web-ext lint` (the linter
 * addons.mozilla.org runs on upload; it works offline). Any error or warning fails.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../server/core/config';
import { FIREFOX_EXTENSION_BUILD, isBuilt } from './fresh';
import { runWxt } from './wxt';

export const FIREFOX_BUILD = path.join(PROJECT_ROOT, '.output/firefox-mv3');

/** Lints the Firefox build already in .output/firefox-mv3, printing the linter's report; throws when it fails. */
export function lintFirefoxBuild(): void {
  execFileSync(
    process.execPath,
    [
      path.join(PROJECT_ROOT, 'node_modules/web-ext/bin/web-ext.js'),
      'lint',
      '--source-dir',
      FIREFOX_BUILD,
      '--warnings-as-errors',
    ],
    { cwd: PROJECT_ROOT, stdio: 'inherit' },
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!isBuilt(FIREFOX_EXTENSION_BUILD)) runWxt(['build', '-b', 'firefox', '--mv3']);
  try {
    lintFirefoxBuild();
  } catch {
    process.exit(1);
  }
}
