/**
 * `npm run release`: builds and zips the Chrome and Firefox packages and the sources zip that
 * addons.mozilla.org asks for, lints the Firefox build that was zipped, and prints each zip's size.
 */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';
import { lintFirefoxBuild } from './lint-firefox';
import { runWxt } from './wxt';

const { name, version } = (await import('../package.json', { with: { type: 'json' } })).default;
const ZIPS = ['chrome', 'firefox', 'sources'].map((kind) => `.output/${name}-${version}-${kind}.zip`);

for (const zip of ZIPS) rmSync(path.join(PROJECT_ROOT, zip), { force: true });
runWxt(['zip']);
runWxt(['zip', '-b', 'firefox', '--mv3']);
try {
  lintFirefoxBuild();
} catch {
  process.exit(1);
}
for (const zip of ZIPS) {
  const { size } = statSync(path.join(PROJECT_ROOT, zip));
  console.log(`${zip}  ${(size / 1024).toFixed(1)} KB`);
}
