import { describe, expect, it } from 'vitest';
import { chromeMajorVersion, desktopUserAgent } from '../../../server/browser/user-agent';
import { CHROMIUM } from '../../support/browser-fixtures';

describe('the user agent of a headless session', () => {
  it('is Chrome’s own for its version and platform, without the headless mark', () => {
    expect(desktopUserAgent('156', 'linux')).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    );
    expect(desktopUserAgent('150', 'win32')).toContain('(Windows NT 10.0; Win64; x64)');
  });

  it('takes the major version from the browser itself, and none from a program that is not one', async () => {
    expect(await chromeMajorVersion(CHROMIUM)).toMatch(/^\d{3}$/);
    expect(await chromeMajorVersion('/bin/false')).toBeNull();
  });
});
