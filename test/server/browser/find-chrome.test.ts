import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROME_INSTALL_HINT, findChrome } from '../../../server/browser/find-chrome';
import { makeTempDir } from '../../support/browser-fixtures';

const scratch = makeTempDir('find-chrome');
afterAll(() => scratch.remove());

function file(name: string, mode: number): string {
  const path = join(scratch.path, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe('findChrome', () => {
  it('takes CHROME_PATH first when it is an executable file', () => {
    const custom = file('my-chrome', 0o755);
    expect(findChrome({ CHROME_PATH: custom, PATH: '' })).toBe(custom);
  });

  /** What the search finds in the usual places, CHROME_PATH aside. */
  const usual = findChrome({ PATH: '' });

  it.skipIf(!usual)('passes over a CHROME_PATH that cannot run, and a folder', () => {
    const notExecutable = file('not-executable', 0o644);
    expect(findChrome({ CHROME_PATH: notExecutable, PATH: '' })).toBe(usual);
    const folder = join(scratch.path, 'a-folder');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    expect(findChrome({ CHROME_PATH: folder, PATH: '' })).toBe(usual);
  });

  it('tells how to get a browser', () => {
    expect(CHROME_INSTALL_HINT).toMatch(/apt-get install chromium.*CHROME_PATH/);
  });
});
