import { describe, expect, it } from 'vitest';
import { BULK_ACTS, mayCall, PERMISSIONS, refusalOf } from '../../../lib/api/permissions';
import { isAtLeast, ROLES } from '../../../lib/api/roles';

describe('who may call what', () => {
  it('orders the roles: each may what the ones after it may', () => {
    expect(ROLES).toEqual(['owner', 'admin', 'editor', 'runner', 'viewer']);
    for (const name of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) {
      const allowed = ROLES.filter((role) => mayCall(role, name));
      expect(allowed, name).toEqual(ROLES.slice(0, allowed.length));
      expect(allowed.length, name).toBeGreaterThan(0);
    }
    expect(isAtLeast('admin', 'editor')).toBe(true);
    expect(isAtLeast('runner', 'editor')).toBe(false);
  });

  it('lets a runner start, stop and run but not edit, delete or export cookies; a viewer only read', () => {
    for (const name of ['startSession', 'stopSession', 'runAutomation', 'answerHelpRequest'] as const)
      expect(mayCall('runner', name), name).toBe(true);
    for (const name of ['updateProfile', 'deleteProfile', 'getProfileCookies', 'exportProfiles'] as const)
      expect(mayCall('runner', name), name).toBe(false);
    expect(mayCall('viewer', 'listProfiles')).toBe(true);
    expect(mayCall('viewer', 'startSession')).toBe(false);
    expect(mayCall('editor', 'createKey')).toBe(false);
    expect(mayCall('admin', 'inviteMember')).toBe(true);
  });

  it('says the role and what it may not do', () => {
    expect(refusalOf('runner', 'deleteProfile')).toBe(
      'A runner may not delete profiles; that takes an editor or above.',
    );
    expect(refusalOf('editor', 'createKey')).toBe(
      'An editor may not make keys; that takes an admin or above.',
    );
  });

  it('gives each bulk action the permission of the endpoint it repeats', () => {
    expect(mayCall('runner', BULK_ACTS.start)).toBe(true);
    expect(mayCall('runner', BULK_ACTS.delete)).toBe(false);
    expect(mayCall('runner', BULK_ACTS.add_tags)).toBe(false);
  });
});
