// A workspace's keys, members, invitations and usage, each act made by a member over the API, in process (no
// browser): what each may make or remove, the bad input refused with a sentence and nothing changed, and the
// hour's requests per member and key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation } from '../../../server/accounts/workspace';
import { createApp } from '../../../server/boot/app';
import { wireService } from '../../../server/boot/wiring';
import { systemClock } from '../../../server/core/clock';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import type { AppDeps } from '../../../server/http/deps';
import { createAccountWithKey } from '../../../server/store/accounts';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

let scratch: ScratchDatabase;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
let ownerKey = '';

type As = (method: string, path: string, body?: unknown) => Promise<Response>;
const as =
  (key: string): As =>
  (method, path, body) =>
    Promise.resolve(
      app.request(path, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
let owner: As;

async function madeKey(role: string, name = `${role} key`, scope?: { tags: string[] }) {
  const response = await owner('POST', '/v1/keys', { name, role, ...(scope ? { scope } : {}) });
  expect(response.status).toBe(201);
  const made = (await response.json()) as { id: string; key: string; member_id: string };
  return { ...made, as: as(made.key) };
}

const listed = async (path: string) =>
  ((await (await owner('GET', path)).json()) as { data: unknown[] }).data;

beforeAll(async () => {
  scratch = await openScratchDatabase('workspace-members');
  const log = createLogger({ write: () => {} });
  const config = loadConfig({ DATA_DIR: scratch.dataDir, HEADLESS: 'true' });
  deps = wireService({ db: scratch.db, config, log, clock: systemClock, lifecycle: createLifecycle(log) });
  app = createApp(deps);
  ownerKey = (await createAccountWithKey(scratch.db, systemClock, { plan: 'premium', name: 'Team Co' })).key;
  owner = as(ownerKey);
});
afterAll(() => scratch?.close());

describe('keys and members, refused with a sentence and nothing changed', () => {
  it('a role above the maker’s, a scope of 1,000 tags, the last owner’s removal or demotion', async () => {
    const admin = await madeKey('admin');
    const keysBefore = (await listed('/v1/keys')).length;
    const above = await admin.as('POST', '/v1/keys', { name: 'boss', role: 'owner' });
    expect(above.status).toBe(403);
    expect((await above.json()).detail).toBe(
      'An admin may not give the role owner, which is above their own.',
    );
    const invitedAbove = await admin.as('POST', '/v1/members/invitations', {
      email: 'o@example.com',
      role: 'owner',
    });
    expect(invitedAbove.status).toBe(403);
    const tags = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const wide = await owner('POST', '/v1/keys', { name: 'wide', role: 'viewer', scope: { tags } });
    expect(wide.status).toBe(422);
    expect((await wide.json()).detail).toMatch(/scope/);
    expect((await listed('/v1/keys')).length).toBe(keysBefore);

    const members = (await listed('/v1/members')) as { id: string; role: string }[];
    const theOwner = members.find((member) => member.role === 'owner') as { id: string };
    const removal = await owner('DELETE', `/v1/members/${theOwner.id}`);
    expect(removal.status).toBe(409);
    expect((await removal.json()).detail).toBe(
      'A workspace keeps at least one owner: make another member owner first.',
    );
    const demotion = await owner('PATCH', `/v1/members/${theOwner.id}`, { role: 'admin' });
    expect(demotion.status).toBe(409);
    const byAdmin = await admin.as('DELETE', `/v1/members/${theOwner.id}`);
    expect(byAdmin.status).toBe(403);
    expect((await byAdmin.json()).detail).toBe('An admin may not remove an owner.');
    expect(await listed('/v1/members')).toEqual(members);
  });

  it('a revoked key, and a removed member’s keys, are refused from the next request on', async () => {
    const viewer = await madeKey('viewer');
    expect((await viewer.as('GET', '/v1/profiles')).status).toBe(200);
    expect((await viewer.as('POST', '/v1/profiles', { name: 'x' })).status).toBe(403);
    expect((await owner('DELETE', `/v1/keys/${viewer.id}`)).status).toBe(200);
    expect((await viewer.as('GET', '/v1/profiles')).status).toBe(401);
    const runner = await madeKey('runner');
    expect((await owner('DELETE', `/v1/members/${runner.member_id}`)).status).toBe(204);
    expect((await runner.as('GET', '/v1/profiles')).status).toBe(401);
  });

  it('an invitation answers a link once; another to an existing member, a used or expired link are refused', async () => {
    const made = await owner('POST', '/v1/members/invitations', { email: 'eve@example.com', role: 'editor' });
    expect(made.status).toBe(201);
    const { url } = (await made.json()) as { url: string };
    expect(url).toMatch(/\/dashboard\/#\/join\/[\w-]{43}$/);
    const token = url.split('/').pop() as string;
    const memberId = await acceptInvitation(deps, token, 'hash');
    const eve = ((await listed('/v1/members')) as { id: string; email: string | null }[]).find(
      (member) => member.id === memberId,
    );
    expect(eve).toMatchObject({ email: 'eve@example.com', role: 'editor' });

    const membersBefore = await listed('/v1/members');
    const again = await owner('POST', '/v1/members/invitations', {
      email: 'EVE@example.com',
      role: 'viewer',
    });
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toBe('EVE@example.com is already a member of this workspace.');
    await expect(acceptInvitation(deps, token, 'hash')).rejects.toThrow(
      'This invitation link was used already: sign in instead, or ask for a new one.',
    );
    const later = await owner('POST', '/v1/members/invitations', {
      email: 'late@example.com',
      role: 'viewer',
    });
    const lateToken = ((await later.json()) as { url: string }).url.split('/').pop() as string;
    const eightDaysOn = { now: () => new Date(Date.now() + 8 * 86_400_000) };
    await expect(acceptInvitation({ ...deps, clock: eightDaysOn }, lateToken, 'hash')).rejects.toThrow(
      'This invitation link has expired (links last 7 days): ask for a new one.',
    );
    expect(await listed('/v1/members')).toEqual(membersBefore);
  });
});

describe('usage: every member’s requests count against the workspace’s plan', () => {
  it('answers the hour’s requests per member and per key, to owners and admins', async () => {
    const agent = await madeKey('runner', 'Agent U');
    const second = await owner('POST', '/v1/keys', { name: 'Agent V', role: 'viewer' });
    const agentV = (await second.json()) as { id: string; key: string; member_id: string };
    for (let i = 0; i < 3; i += 1) expect((await agent.as('GET', '/v1/profiles')).status).toBe(200);
    expect((await as(agentV.key)('GET', '/v1/profiles')).status).toBe(200);

    const byKey = await (await owner('GET', '/v1/usage?by=key')).json();
    expect(byKey).toMatchObject({ by: 'key', plan: 'premium', limit: expect.any(Number) });
    expect(byKey.data).toContainEqual({
      id: agent.id,
      name: 'Agent U',
      member_id: agent.member_id,
      requests: 3,
    });
    expect(byKey.data).toContainEqual({
      id: agentV.id,
      name: 'Agent V',
      member_id: agentV.member_id,
      requests: 1,
    });
    const summed = byKey.data.reduce((sum: number, row: { requests: number }) => sum + row.requests, 0);
    expect(byKey.used).toBeGreaterThanOrEqual(summed);

    const byMember = await (await owner('GET', '/v1/usage')).json();
    expect(byMember.by).toBe('member');
    expect(byMember.data).toContainEqual({
      id: agent.member_id,
      name: 'Agent U',
      member_id: agent.member_id,
      requests: 3,
    });
    const counts = byMember.data.map((row: { requests: number }) => row.requests);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));

    const refused = await agent.as('GET', '/v1/usage');
    expect(refused.status).toBe(403);
    expect((await refused.json()).detail).toBe(
      'A runner may not read the usage per member and key; that takes an admin or above.',
    );
    expect((await owner('GET', '/v1/usage?by=team')).status).toBe(422);
  });
});
