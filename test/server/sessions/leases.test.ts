import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Role } from '../../../lib/api/roles';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { createApp } from '../../../server/boot/app';
import { wireService } from '../../../server/boot/wiring';
import { systemClock } from '../../../server/core/clock';
import { loadConfig } from '../../../server/core/config';
import { newId } from '../../../server/core/ids';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import type { AppDeps } from '../../../server/http/deps';
import { createAccountWithKey, insertKey } from '../../../server/store/accounts';
import { insertHelpRequest } from '../../../server/store/help-requests';
import { apiError } from '../../support/harness';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/* Members of one workspace sharing a profile: one holder at a time, a release, saved states, the audit log. */

let scratch: ScratchDatabase;
let deps: AppDeps;
let accountId: string;
let app: ReturnType<typeof createApp>;
const members: Record<string, { id: string; key: string; api: ApiClient }> = {};

beforeAll(async () => {
  scratch = await openScratchDatabase('leases');
  const { db } = scratch;
  const log = createLogger({ write: () => {} });
  const config = loadConfig({
    DATA_DIR: scratch.dataDir,
    HEADLESS: 'true',
    PROFILE_STATE_MAX_BYTES: String(20 * 2 ** 20),
  });
  deps = wireService({ db, config, log, clock: systemClock, lifecycle: createLifecycle(log) });
  app = createApp(deps);
  const client = (key: string) =>
    createClient({
      baseUrl: 'http://127.0.0.1',
      apiKey: key,
      fetch: (input, init) => Promise.resolve(app.request(input as string, init)),
    });
  const owner = await createAccountWithKey(db, systemClock, { plan: 'enterprise', name: 'Olga' });
  accountId = owner.account_id;
  const [ownerRow] = await db.query<{ id: string }>(`select id from members where account_id = $1`, [
    accountId,
  ]);
  members.olga = { id: ownerRow?.id as string, key: owner.key, api: client(owner.key) };
  for (const [name, role] of [
    ['Eve', 'editor'],
    ['Ron', 'runner'],
  ] as [string, Role][]) {
    const id = newId('mem');
    await db.query(
      `insert into members (id, account_id, name, role, created_at) values ($1, $2, $3, $4, now())`,
      [id, accountId, name, role],
    );
    const made = await insertKey(db, {
      accountId,
      memberId: id,
      name,
      createdAt: new Date(),
      expiresAt: null,
    });
    members[name.toLowerCase()] = { id, key: made.key, api: client(made.key) };
  }
});

afterAll(async () => {
  await deps?.sessions.stopAll('service_shutdown');
  await scratch?.close();
});

const api = (name: string) => members[name]?.api as ApiClient;

describe('a profile’s lease', () => {
  let profileId: string;

  it('is taken by the member who starts, and another member’s start is told who holds it', async () => {
    profileId = (await api('olga').createProfile({ name: 'Shop A1' })).id;
    const session = await api('eve').startSession({ profile_id: profileId });

    const refused = await app.request('/v1/sessions/start', {
      method: 'POST',
      headers: { Authorization: `Bearer ${members.olga?.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile_id: profileId }),
    });
    const heldBy = { member: { id: members.eve?.id, name: 'Eve' }, session_id: session.id };
    expect(refused.status).toBe(409);
    const problem = await refused.json();
    expect(problem).toMatchObject({ code: 'profile_held', held_by: heldBy });
    expect(problem.detail).toMatch(/^Shop A1 is open by Eve since \d\d:\d\d UTC;/);
    // A run never drives a session another member holds, named by its session or by its profile.
    const script = { steps: [{ action: 'wait_for' as const, ms: 1 }] };
    for (const target of [{ session_id: session.id }, { profile_id: profileId }]) {
      const run = await apiError(api('olga').runAutomation({ ...target, script }));
      expect(run).toMatchObject({ status: 409, code: 'profile_held' });
      expect(run.detail).toMatch(/^Shop A1 is open by Eve since \d\d:\d\d UTC;/);
    }
    expect((await api('olga').listRuns()).data).toEqual([]);
    expect(await api('olga').getProfile(profileId)).toMatchObject({ status: 'running', held_by: heldBy });
    const listed = (await api('ron').listProfiles()).data.find((profile) => profile.id === profileId);
    expect(listed?.held_by).toMatchObject(heldBy);
  });

  it('is released by an owner or admin only, with the session stopped and its state saved', async () => {
    const ron = await apiError(api('ron').releaseProfile(profileId, { reason: 'mine now' }));
    expect(ron).toMatchObject({ status: 403, code: 'forbidden' });
    expect(ron.detail).toBe('A runner may not release profiles; that takes an admin or above.');

    const released = await api('olga').releaseProfile(profileId, { reason: 'shift over' });
    expect(released).toMatchObject({ status: 'idle', held_by: null, session_id: null });
    const [stopped] = (await api('olga').listSessions()).data;
    expect(stopped).toMatchObject({ profile_id: profileId, status: 'stopped', stop_reason: 'released' });
    expect((await api('olga').listProfileVersions(profileId)).data).toMatchObject([{ version: 1 }]);

    const again = await apiError(api('olga').releaseProfile(profileId, { reason: 'twice' }));
    expect(again).toMatchObject({ status: 409, code: 'profile_not_held' });
    expect(again.detail).toBe('Nobody holds Shop A1; there is nothing to release.');
  });

  it('restores a kept state for an editor while nobody holds the profile', async () => {
    const session = await api('olga').startSession({ profile_id: profileId });
    expect(await apiError(api('eve').restoreProfileVersion(profileId, 1))).toMatchObject({
      status: 409,
      code: 'profile_held',
    });
    await api('olga').stopSession({ session_id: session.id });
    expect((await api('eve').listProfileVersions(profileId)).data.map((v) => v.version)).toEqual([2, 1]);

    expect(await apiError(api('ron').restoreProfileVersion(profileId, 1))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(await api('eve').restoreProfileVersion(profileId, 1)).toMatchObject({ version: 3 });
    expect(await apiError(api('eve').restoreProfileVersion(profileId, 9))).toMatchObject({ status: 404 });
  });

  it('leaves every act in the audit log, for owners and admins, and as an event for webhooks', async () => {
    const log = await api('olga').listAudit({ profile_id: profileId });
    const acts = log.data.map((record) => [record.action, record.actor.name]).reverse();
    expect(acts).toEqual([
      ['profile.create', 'Olga'],
      ['session.start', 'Eve'],
      ['profile.release', 'Olga'],
      ['session.start', 'Olga'],
      ['session.stop', 'Olga'],
      ['profile.restore', 'Eve'],
    ]);
    expect(log.data.find((record) => record.action === 'profile.release')?.detail).toEqual({
      reason: 'shift over',
    });
    const eves = await api('olga').listAudit({ member: members.eve?.id as string, limit: 1 });
    expect(eves.data).toMatchObject([{ action: 'profile.restore' }]);
    expect(eves.next_cursor).not.toBeNull();
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await api('olga').listAudit({ since: future })).data).toEqual([]);
    expect(await apiError(api('eve').listAudit())).toMatchObject({ status: 403, code: 'forbidden' });

    const [events] = await scratch.db.query<{ count: number }>(
      `select count(*)::int as count from events where account_id = $1 and type = 'audit.recorded'`,
      [accountId],
    );
    expect(events?.count).toBe(log.data.length);
  });
});

describe('a help request taken over', () => {
  it('is held by the person who takes it while they act, and given back to the agent by Done', async () => {
    const profile = await api('olga').createProfile({ name: 'Shop H' });
    const session = await api('ron').startSession({ profile_id: profile.id });
    // The agent's question on its session, as its request_human or a run's ask_human stores it.
    const now = new Date();
    const request = (await insertHelpRequest(scratch.db, {
      accountId,
      sessionId: session.id,
      profileId: profile.id,
      tabId: 'tab-1',
      runId: null,
      reason: 'sign in',
      question: null,
      choices: [],
      createdAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    })) as HelpRequest;
    const heldBy = async () => (await api('olga').getProfile(profile.id)).held_by?.member.name;
    expect(await heldBy()).toBe('Ron');

    const taken = await api('eve').takeHelpRequest(request.id);
    expect(taken.taken_by).toEqual({ id: members.eve?.id, name: 'Eve' });
    expect(await heldBy()).toBe('Eve');
    expect(await api('eve').takeHelpRequest(request.id)).toMatchObject({ taken_by: { name: 'Eve' } });
    const byRon = await apiError(api('ron').takeHelpRequest(request.id));
    expect(byRon).toMatchObject({ status: 409, code: 'profile_held' });
    expect(byRon.detail).toMatch(/^Shop H is open by Eve since/);
    const script = { steps: [{ action: 'wait_for' as const, ms: 1 }] };
    const ronsRun = await apiError(api('ron').runAutomation({ session_id: session.id, script }));
    expect(ronsRun).toMatchObject({ status: 409, code: 'profile_held' });

    expect(await api('eve').answerHelpRequest(request.id, { outcome: 'done' })).toMatchObject({
      outcome: 'done',
    });
    expect(await heldBy()).toBe('Ron');
    const late = await apiError(api('eve').takeHelpRequest(request.id));
    expect(late).toMatchObject({ status: 409, code: 'help_answered' });
    await api('ron').stopSession({ session_id: session.id });
    expect(await heldBy()).toBeUndefined();
    const audit = await api('olga').listAudit({ profile_id: profile.id });
    expect(audit.data.map((record) => [record.action, record.actor.name]).reverse()).toEqual([
      ['profile.create', 'Olga'],
      ['session.start', 'Ron'],
      ['help.take_over', 'Eve'],
      ['help.take_over', 'Eve'],
      ['session.stop', 'Ron'],
    ]);
  });

  it('is released when its holder is removed from the workspace, the session stopped and its state saved', async () => {
    const id = newId('mem');
    await deps.db.query(
      `insert into members (id, account_id, name, role, created_at) values ($1, $2, 'Max', 'editor', now())`,
      [id, accountId],
    );
    const max = await insertKey(deps.db, {
      accountId,
      memberId: id,
      name: 'Max',
      createdAt: new Date(),
      expiresAt: null,
    });
    const maxApi = createClient({
      baseUrl: 'http://127.0.0.1',
      apiKey: max.key,
      fetch: (input, init) => Promise.resolve(app.request(input as string, init)),
    });
    const profile = await api('olga').createProfile({ name: 'Max’s shop' });
    const session = await maxApi.startSession({ profile_id: profile.id });
    expect((await api('olga').getProfile(profile.id)).held_by?.member.name).toBe('Max');

    const removed = await app.request(`/v1/members/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${members.olga?.key}` },
    });
    expect(removed.status).toBe(204);
    expect(await api('olga').getProfile(profile.id)).toMatchObject({ status: 'idle', held_by: null });
    expect(await api('olga').getSession(session.id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'released',
    });
    const started = await api('eve').startSession({ profile_id: profile.id });
    await api('eve').stopSession({ session_id: started.id });
  });
});

describe('a batch on profiles another member holds', () => {
  it('answers each held profile at once with who holds it, and queues only the free ones', async () => {
    const held = (await api('olga').createProfile({ name: 'Shop H1' })).id;
    const free = (await api('olga').createProfile({ name: 'Shop H2' })).id;
    const session = await api('eve').startSession({ profile_id: held });
    const script = { steps: [{ action: 'wait_for' as const, ms: 1 }] };
    const before = new Set((await api('olga').listRuns()).data.map((run) => run.id));
    const batch = await api('olga').bulkProfiles({ select: { ids: [held, free] }, action: 'run', script });
    expect(batch.items.map((item) => [item.name, item.ok, item.problem?.code])).toEqual([
      ['Shop H1', false, 'profile_held'],
      ['Shop H2', true, undefined],
    ]);
    expect(batch.items[0]?.problem?.detail).toMatch(/^Shop H1 is open by Eve since \d\d:\d\d UTC;/);
    const queued = (await api('olga').listRuns()).data.filter((run) => !before.has(run.id));
    expect(queued.map((run) => run.profile_id)).toEqual([free]);
    await api('eve').stopSession({ session_id: session.id });
  });
});
