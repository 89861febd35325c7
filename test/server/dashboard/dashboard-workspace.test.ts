/**
 * The workspace on the dashboard, as its members act there: an owner invites a person (the link shown once), the
 * person opens it, chooses a password and is a member signed in; the owner changes their role and removes them;
 * keys carry a role and a scope; the audit log lists it all, paged; a runner is refused what its role may not do.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { dashboardClient } from '../../support/dashboard-client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service.close());

interface Member {
  id: string;
  email: string | null;
  role: string;
  scope: { tags: string[] } | null;
}
interface Key {
  id: string;
  name: string;
  role: string;
  scope: { tags: string[] } | null;
  mine: boolean;
  extension_used_at: string | null;
  key?: string;
}

async function owner(email: string) {
  const client = dashboardClient(service.baseUrl);
  expect((await client.json('POST', '/sign-up', { email, password: PASSWORD })).status).toBe(201);
  return client;
}

/** The owner invites `email`; the person opens the link in another browser and joins with a password. */
async function invited(by: ReturnType<typeof dashboardClient>, email: string, role: string, scope?: object) {
  const invitation = await by.json<{ url: string }>('POST', '/members/invitations', { email, role, scope });
  expect(invitation.status).toBe(201);
  const token = /#\/join\/([\w-]+)$/.exec(invitation.body.url)?.[1] ?? '';
  const person = dashboardClient(service.baseUrl);
  const joined = await person.json('POST', '/join', { token, password: PASSWORD });
  expect(joined).toMatchObject({ status: 201, body: { email, role, has_password: true } });
  return { person, token };
}

const members = async (client: ReturnType<typeof dashboardClient>) =>
  (await client.json<{ data: Member[] }>('GET', '/members')).body.data;

describe('inviting a person', () => {
  it('answers a one-time link the person opens, chooses a password with, and is a member signed in', async () => {
    const ada = await owner('ada@team.example');
    const invitation = await ada.json<{ url: string; role: string }>('POST', '/members/invitations', {
      email: 'bob@team.example',
      role: 'runner',
      scope: { tags: ['team-a'] },
    });
    expect(invitation).toMatchObject({ status: 201, body: { role: 'runner', scope: { tags: ['team-a'] } } });
    expect(invitation.body.url).toMatch(new RegExp(`^${service.baseUrl}/dashboard/#/join/[\\w-]{43}$`));
    const token = invitation.body.url.split('/join/')[1];
    // Not a member before the link is used.
    expect((await members(ada)).map((member) => member.email)).toEqual(['ada@team.example']);

    const bob = dashboardClient(service.baseUrl);
    const offer = await bob.json('POST', '/invitation', { token });
    expect(offer).toEqual({
      status: 200,
      body: { email: 'bob@team.example', workspace: 'ada@team.example', role: 'runner' },
    });
    const short = await bob.json('POST', '/join', { token, password: 'short' });
    expect(short.status).toBe(422);
    const joined = await bob.json('POST', '/join', { token, password: PASSWORD });
    expect(joined).toMatchObject({ status: 201, body: { email: 'bob@team.example', role: 'runner' } });
    expect((await bob.json('GET', '/status')).body).toMatchObject({ account: { role: 'runner' } });
    expect(await members(ada)).toEqual([
      expect.objectContaining({ email: 'ada@team.example', role: 'owner', scope: null }),
      expect.objectContaining({ email: 'bob@team.example', role: 'runner', scope: { tags: ['team-a'] } }),
    ]);

    // Signs in with that password from another browser.
    const elsewhere = dashboardClient(service.baseUrl);
    const signIn = { email: 'bob@team.example', password: PASSWORD };
    expect((await elsewhere.json('POST', '/sign-in', signIn)).status).toBe(200);

    // The link made one member, once.
    for (const [path, body] of [
      ['/invitation', { token }],
      ['/join', { token, password: PASSWORD }],
    ] as const) {
      const again = await dashboardClient(service.baseUrl).json('POST', path, body);
      expect(again).toMatchObject({
        status: 409,
        body: { detail: 'This invitation link was used already: sign in instead, or ask for a new one.' },
      });
    }
    const madeUp = await dashboardClient(service.baseUrl).json('POST', '/invitation', {
      token: 'x'.repeat(43),
    });
    expect(madeUp.body).toMatchObject({ detail: 'This invitation link is not valid: ask for a new one.' });
  });

  it('refuses a runner what its role may not do, with a sentence, and changes nothing', async () => {
    const ada = await owner('ada2@team.example');
    const { person: runner } = await invited(ada, 'rita@team.example', 'runner');
    const invite = await runner.json('POST', '/members/invitations', {
      email: 'x@team.example',
      role: 'viewer',
    });
    expect(invite).toMatchObject({
      status: 403,
      body: { detail: 'A runner may not invite members; that takes an admin or above.' },
    });
    expect((await runner.json('GET', '/audit')).body).toMatchObject({
      detail: 'A runner may not read the audit log; that takes an admin or above.',
    });
    const [first] = await members(runner);
    expect((await runner.json('DELETE', `/members/${first?.id}`)).status).toBe(403);
    expect(await members(ada)).toHaveLength(2);
    const agent = await runner.json('POST', '/keys', { name: 'Agent', role: 'runner' });
    expect(agent.body).toMatchObject({ detail: 'A runner may not make keys; that takes an admin or above.' });
  });
});

describe('members and the audit log', () => {
  it('changes a role and a scope, removes a member (their sign-ins end), and keeps the last owner', async () => {
    const ada = await owner('ada3@team.example');
    const { person: eve } = await invited(ada, 'eve@team.example', 'viewer');
    const eveId = (await members(ada)).find((member) => member.email === 'eve@team.example')?.id;
    const changed = await ada.json('PATCH', `/members/${eveId}`, {
      role: 'editor',
      scope: { tags: ['shop'] },
    });
    expect(changed).toMatchObject({ status: 200, body: { role: 'editor', scope: { tags: ['shop'] } } });
    expect((await eve.json('GET', '/status')).body).toMatchObject({ account: { role: 'editor' } });

    const adaId = (await members(ada)).find((member) => member.role === 'owner')?.id;
    const last = await ada.json('DELETE', `/members/${adaId}`);
    expect(last).toMatchObject({
      status: 409,
      body: { detail: 'A workspace keeps at least one owner: make another member owner first.' },
    });
    expect((await ada.json('DELETE', `/members/${eveId}`)).status).toBe(204);
    expect((await eve.json('GET', '/status')).body).toMatchObject({ account: null });
    expect((await members(ada)).map((member) => member.email)).toEqual(['ada3@team.example']);

    const audit = await ada.json<{ data: { action: string; actor: { id: string } }[]; next_cursor: string }>(
      'GET',
      `/audit?member=${adaId}&limit=2`,
    );
    expect(audit.body.data.map((record) => record.action)).toEqual(['member.remove', 'member.change']);
    expect(audit.body.data.every((record) => record.actor.id === adaId)).toBe(true);
    const older = await ada.json<{ data: { action: string }[] }>(
      'GET',
      `/audit?member=${adaId}&limit=2&cursor=${audit.body.next_cursor}`,
    );
    expect(older.body.data.map((record) => record.action)).toEqual(['member.invite']);
    const since = await ada.json<{ data: unknown[] }>(
      'GET',
      `/audit?since=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    expect(since.body.data).toEqual([]);
    expect((await ada.json('GET', '/audit?since=yesterday')).status).toBe(422);
  });
});

describe('keys with a role and a scope', () => {
  it('makes an agent’s key and one’s own, lists each member’s own to them, and marks the extension’s', async () => {
    const ada = await owner('ada4@team.example');
    const { person: ed } = await invited(ada, 'ed@team.example', 'editor');
    const agent = await ada.json<Key>('POST', '/keys', {
      name: 'Agent A',
      role: 'runner',
      scope: { tags: ['team-a'] },
      expires_in_days: 30,
    });
    expect(agent).toMatchObject({
      status: 201,
      body: { name: 'Agent A', role: 'runner', scope: { tags: ['team-a'] }, mine: false },
    });
    const own = await ada.json<Key>('POST', '/keys', { name: 'Laptop' });
    expect(own.body).toMatchObject({ role: 'owner', scope: null, mine: true, extension_used_at: null });
    const tooHigh = await ed.json('POST', '/keys', { name: 'Boss', role: 'owner' });
    expect(tooHigh.status).toBe(403);
    const edsOwn = await ed.json<Key>('POST', '/keys', { name: 'Ed laptop' });
    expect(edsOwn.body).toMatchObject({ role: 'editor', mine: true });
    const listed = async (client: ReturnType<typeof dashboardClient>) =>
      (await client.json<{ data: Key[] }>('GET', '/keys')).body.data;
    expect((await listed(ed)).map((key) => key.name)).toEqual(['Ed laptop']);
    expect((await listed(ada)).map((key) => key.name).sort()).toEqual(['Agent A', 'Ed laptop', 'Laptop']);

    // The extension's requests carry its Origin: the list says which key it uses.
    const api = createClient({
      baseUrl: service.baseUrl,
      apiKey: own.body.key ?? '',
      fetch: (input, init) =>
        fetch(input, {
          ...init,
          headers: { ...init?.headers, Origin: 'chrome-extension://abcdefghijklmnop' },
        }),
    });
    await api.listProfiles();
    await vi.waitFor(async () => {
      const laptop = (await listed(ada)).find((key) => key.name === 'Laptop');
      expect(laptop?.extension_used_at).not.toBeNull();
    });
    expect((await listed(ada)).find((key) => key.name === 'Agent A')?.extension_used_at).toBeNull();

    // Usage per member and key: an owner sees everyone's, an editor their own.
    const usage = await ada.json<{ by_key: { name: string; requests: number }[] }>('GET', '/usage');
    expect(usage.body.by_key).toContainEqual(expect.objectContaining({ name: 'Laptop', requests: 1 }));
    const edsUsage = await ed.json<{ by_member: { name: string }[]; by_key: unknown[] }>('GET', '/usage');
    expect(edsUsage.body.by_member.map((row) => row.name)).toEqual(['ed@team.example']);
    expect(edsUsage.body.by_key).toHaveLength(1);

    // An editor revokes their own key, never another's.
    expect((await ed.json('DELETE', `/keys/${agent.body.id}`)).status).toBe(403);
    expect((await ed.json<Key>('DELETE', `/keys/${edsOwn.body.id}`)).body).toMatchObject({
      name: 'Ed laptop',
    });
    const audit = await ada.json<{ data: { action: string }[] }>('GET', '/audit');
    expect(audit.body.data.map((record) => record.action)).toEqual(
      expect.arrayContaining(['key.create', 'key.revoke', 'member.invite']),
    );
  });
});
