import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const FIXED_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const NAMES_ON_PATH = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export const CHROME_INSTALL_HINT =
  'Install Chromium (on Debian or Ubuntu: apt-get install chromium) or set CHROME_PATH to a Chrome or Chromium executable.';

/** The first usable Chrome or Chromium executable: CHROME_PATH, then the usual places, then PATH. */
export function findChrome(env: NodeJS.ProcessEnv = process.env): string | null {
  const searchPath = (env.PATH ?? '').split(delimiter).filter(Boolean);
  const candidates = [
    env.CHROME_PATH,
    ...FIXED_PATHS,
    ...NAMES_ON_PATH.flatMap((name) => searchPath.map((folder) => join(folder, name))),
  ];
  return candidates.find((candidate) => candidate && isExecutableFile(candidate)) ?? null;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
