import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';

/** What the dashboard's pages are built from, and the file each build writes last. */
export const DASHBOARD_BUILD = {
  output: '.output/dashboard/index.html',
  sources: ['dashboard', 'components', 'lib', 'package-lock.json'],
};

const EXTENSION_SOURCES = [
  'entrypoints',
  'components',
  'lib',
  'public',
  'wxt.config.ts',
  'package-lock.json',
];

/** What the extension is built from, and the file each build writes. */
export const EXTENSION_BUILD = { output: '.output/chrome-mv3/manifest.json', sources: EXTENSION_SOURCES };

/** The same for its Firefox build. */
export const FIREFOX_EXTENSION_BUILD = {
  output: '.output/firefox-mv3/manifest.json',
  sources: EXTENSION_SOURCES,
};

const { name, version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));

/** The store packages `wxt zip` writes for each browser, after building it (into the folders above). */
export const EXTENSION_ZIPS = {
  chrome: { output: `.output/${name}-${version}-chrome.zip`, sources: EXTENSION_SOURCES },
  firefox: { output: `.output/${name}-${version}-firefox.zip`, sources: EXTENSION_SOURCES },
};

/** The latest change of any file at or under `file` (a folder's dot entries skipped), in ms since the epoch. */
function latestChange(file: string): number {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(file)
    .filter((name) => !name.startsWith('.'))
    .reduce((latest, name) => Math.max(latest, latestChange(path.join(file, name))), stats.mtimeMs);
}

/** Whether a build's output is there and newer than every one of its sources: then building again changes nothing. */
export function isBuilt({ output, sources }: { output: string; sources: string[] }): boolean {
  const built = path.join(PROJECT_ROOT, output);
  if (!existsSync(built)) return false;
  const builtAt = statSync(built).mtimeMs;
  return sources.every((source) => {
    const file = path.join(PROJECT_ROOT, source);
    return !existsSync(file) || latestChange(file) < builtAt;
  });
}
