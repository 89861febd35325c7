import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';

// The extension's generated types (.wxt/) come from its build tool, a dev dependency: an install for the service
// alone (npm install --omit=dev) has no wxt and needs none of them.
const wxt = path.join(PROJECT_ROOT, 'node_modules/wxt/bin/wxt.mjs');
if (existsSync(wxt)) {
  const prepared = spawnSync(process.execPath, [wxt, 'prepare'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  process.exitCode = prepared.status ?? 1;
}
