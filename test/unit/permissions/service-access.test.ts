import { beforeEach, describe, expect, it } from 'vitest';
import {
  hasServiceAccess,
  releaseServiceAccess,
  requestServiceAccess,
  servicePermissionPattern,
} from '../../../lib/permissions/service-access';
import { installBrowser } from '../background/browser-stubs';

let stubs: ReturnType<typeof installBrowser>;

beforeEach(() => {
  stubs = installBrowser();
});

describe('access to the service’s origin', () => {
  it('names the origin as a match pattern, without port or path', () => {
    expect(servicePermissionPattern('https://pilot.example.com:8443/base/')).toBe(
      'https://pilot.example.com/*',
    );
    expect(servicePermissionPattern('http://127.0.0.1:8787')).toBe('http://127.0.0.1/*');
    expect(servicePermissionPattern('ftp://files.example.com')).toBeNull();
    expect(servicePermissionPattern('not a url')).toBeNull();
  });

  it('asks for exactly that origin, and nothing for an address that is not http(s)', async () => {
    expect(await requestServiceAccess('https://pilot.example.com:8443')).toBe(true);
    expect(stubs.requestPermission).toHaveBeenCalledWith({ origins: ['https://pilot.example.com/*'] });
    expect(await requestServiceAccess('file:///etc/passwd')).toBe(false);
    expect(stubs.requestPermission).toHaveBeenCalledOnce();
  });

  it('reports whether it is granted, and what the person answered', async () => {
    stubs.containsPermission.mockResolvedValueOnce(false);
    expect(await hasServiceAccess('https://pilot.example.com')).toBe(false);
    stubs.requestPermission.mockResolvedValueOnce(false);
    expect(await requestServiceAccess('https://pilot.example.com')).toBe(false);
  });

  it('gives back a service’s host once the person connects elsewhere, and keeps the manifest’s own', async () => {
    await releaseServiceAccess('https://old.example.com:8443', 'https://pilot.example.com');
    expect(stubs.removePermission).toHaveBeenCalledWith({ origins: ['https://old.example.com/*'] });
    await releaseServiceAccess('https://pilot.example.com', 'https://pilot.example.com:9000/v1');
    await releaseServiceAccess('http://127.0.0.1:8787', 'https://pilot.example.com');
    await releaseServiceAccess('not a url', 'https://pilot.example.com');
    expect(stubs.removePermission).toHaveBeenCalledOnce();
  });
});
