// The cross-account isolation suite, within one workspace: each act made as a runner or as a member of another
// scope, against profiles outside what its key may see or do. In process; no browser is started.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../../support/event-stream';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { call, connect, httpTransport, textOf } from '../../support/mcp-client';

let service: TestService;
let owner: ReturnType<typeof requester>;
const ids: Record<'a1' | 'b1' | 'plain', string> = { a1: '', b1: '', plain: '' };
let proxyId = '';

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: JSON_HEADERS });

async function madeKey(role: string, scope?: { tags: string[] }, name = `${role} key`) {
  const response = await owner('POST', '/v1/keys', json({ name, role, ...(scope ? { scope } : {}) }));
  expect(response.status).toBe(201);
  const made = (await response.json()) as {
    id: string;
    key: string;
    role: string;
    scope: unknown;
    member_id: string;
  };
  return { ...made, as: requester(service.baseUrl, made.key) };
}

async function createProfile(name: string, tags: string[]): Promise<string> {
  const response = await owner('POST', '/v1/profiles', json({ name, tags }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  service = await startServiceInProcess();
  owner = requester(service.baseUrl, await service.createKey('premium', 'Team Co'));
  ids.a1 = await createProfile('Shop A1', ['team-a']);
  ids.b1 = await createProfile('Shop B1', ['team-b']);
  ids.plain = await createProfile('Untagged', []);
  const proxy = await owner(
    'POST',
    '/v1/proxies',
    json({
      name: 'paid',
      scheme: 'http',
      host: 'proxy.example',
      port: 8080,
      username: 'user',
      password: 'hunter2',
    }),
  );
  proxyId = ((await proxy.json()) as { id: string }).id;
}, 120_000);
afterAll(() => service?.close());

/** What an unknown id answers, the same whoever asks: the body an out-of-scope profile must answer too. */
async function unknownAnswer(
  as: ReturnType<typeof requester>,
  method = 'GET',
  path = '/v1/profiles/prf_nobody',
) {
  const response = await as(method, path);
  return { status: response.status, body: await response.json() };
}

describe('a runner limited to team-a', () => {
  let runner: Awaited<ReturnType<typeof madeKey>>;
  beforeAll(async () => {
    runner = await madeKey('runner', { tags: ['team-a'] }, 'Agent A');
  });

  it('is told its workspace, member, role and scope', async () => {
    const account = await (await runner.as('GET', '/v1/account')).json();
    expect(account).toMatchObject({
      name: 'Team Co',
      member: { id: runner.member_id, name: 'Agent A' },
      role: 'runner',
      scope: { tags: ['team-a'] },
    });
    // What its role may not call, for the extension to leave out.
    expect(account.may_not).toEqual(expect.arrayContaining(['deleteProfile', 'updateProfile', 'createKey']));
    expect(account.may_not).not.toContain('startSession');
  });

  it('lists and counts only its scope’s profiles, and answers the others as unknown ids', async () => {
    const list = (await (await runner.as('GET', '/v1/profiles?total=true')).json()) as {
      data: { id: string }[];
      total: number;
    };
    expect(list.data.map((profile) => profile.id)).toEqual([ids.a1]);
    expect(list.total).toBe(1);
    const unknown = await unknownAnswer(runner.as);
    for (const id of [ids.b1, ids.plain]) {
      const response = await runner.as('GET', `/v1/profiles/${id}`);
      expect({ status: response.status, body: await response.json() }).toEqual(unknown);
    }
  });

  it('may not start, stop or run on another scope’s profile: 404, and no browser starts', async () => {
    const start = await runner.as('POST', '/v1/sessions/start', json({ profile_id: ids.b1 }));
    expect(start.status).toBe(404);
    const stop = await runner.as('DELETE', `/v1/sessions/stop?profile_id=${ids.b1}`);
    expect(stop.status).toBe(404);
    const run = await runner.as(
      'POST',
      '/v1/automation/run',
      json({ profile_id: ids.b1, script: { steps: [{ action: 'wait_for', ms: 1 }] } }),
    );
    expect(run.status).toBe(404);
    const bulk = await runner.as(
      'POST',
      '/v1/profiles/bulk',
      json({ select: { ids: [ids.b1] }, action: 'stop' }),
    );
    expect((await bulk.json()).items).toEqual([
      expect.objectContaining({ id: ids.b1, ok: false, problem: expect.objectContaining({ status: 404 }) }),
    ]);
  });

  it('is refused what a runner may not do with 403 and a sentence, and nothing changes', async () => {
    const edit = await runner.as('PATCH', `/v1/profiles/${ids.a1}`, json({ name: 'Renamed' }));
    expect(edit.status).toBe(403);
    expect(await edit.json()).toMatchObject({
      code: 'forbidden',
      detail: 'A runner may not edit profiles; that takes an editor or above.',
    });
    const bulkDelete = await runner.as(
      'POST',
      '/v1/profiles/bulk',
      json({ select: { ids: [ids.a1] }, action: 'delete' }),
    );
    expect(bulkDelete.status).toBe(403);
    expect((await bulkDelete.json()).detail).toBe(
      'A runner may not delete profiles; that takes an editor or above.',
    );
    for (const [method, path] of [
      ['DELETE', `/v1/profiles/${ids.a1}`],
      ['GET', `/v1/profiles/${ids.a1}/cookies`],
      ['GET', '/v1/keys'],
      ['POST', '/v1/members/invitations'],
    ] as const) {
      expect((await runner.as(method, path)).status).toBe(403);
    }
    expect((await (await owner('GET', `/v1/profiles/${ids.a1}`)).json()).name).toBe('Shop A1');
  });

  it('never reads a proxy’s password', async () => {
    const proxy = await (await runner.as('GET', `/v1/proxies/${proxyId}`)).json();
    expect(proxy.url).toBe('http://user@proxy.example:8080');
    expect(JSON.stringify(proxy)).not.toContain('hunter2');
  });

  it('sees the same over MCP: its scope’s profiles, and the refusal of what its role may not do', async () => {
    const client = await connect(httpTransport(service.baseUrl, runner.key));
    try {
      const list = textOf(await call(client, 'list_profiles', {}));
      expect(list).toContain(ids.a1);
      expect(list).not.toContain(ids.b1);
      expect(textOf(await call(client, 'get_profile', { profile_id: ids.b1 }))).toMatch(
        /no profile with this id/,
      );
      const deleted = await call(client, 'delete_profile', { profile_id: ids.a1 });
      expect(deleted.isError).toBe(true);
      expect(textOf(deleted)).toBe('A runner may not delete profiles; that takes an editor or above.');
    } finally {
      await client.close();
    }
  });
});

describe('an editor of another scope (team-b)', () => {
  it('answers team-a’s profile as another account’s: by id, to edit, clone, delete, cookies and in bulk', async () => {
    const editor = await madeKey('editor', { tags: ['team-b'] });
    for (const [method, path, body] of [
      ['GET', `/v1/profiles/${ids.a1}`, undefined],
      ['PATCH', `/v1/profiles/${ids.a1}`, { name: 'Taken' }],
      ['POST', `/v1/profiles/${ids.a1}/clone`, {}],
      ['DELETE', `/v1/profiles/${ids.a1}`, undefined],
      ['GET', `/v1/profiles/${ids.a1}/cookies`, undefined],
    ] as const) {
      const response = await editor.as(method, path, body === undefined ? {} : json(body));
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const bulk = await editor.as(
      'POST',
      '/v1/profiles/bulk',
      json({ select: { ids: [ids.a1, ids.b1] }, action: 'add_tags', tags: ['seen'] }),
    );
    expect(bulk.status).toBe(200);
    const a1 = await (await owner('GET', `/v1/profiles/${ids.a1}`)).json();
    expect(a1).toMatchObject({ name: 'Shop A1', tags: ['team-a'] });
    const b1 = await (await owner('GET', `/v1/profiles/${ids.b1}`)).json();
    expect(b1.tags).toEqual(['team-b', 'seen']);
  });

  it('is recorded in the audit log for what it does over MCP, as over the API: its member, its key', async () => {
    const editor = await madeKey('editor', { tags: ['team-b'] }, 'Editor MCP');
    const client = await connect(httpTransport(service.baseUrl, editor.key));
    try {
      const changes = { notes: 'by an agent' };
      expect((await call(client, 'update_profile', { profile_id: ids.b1, changes })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const audit = await (
      await owner('GET', `/v1/audit?profile_id=${ids.b1}&member=${editor.member_id}`)
    ).json();
    expect(audit.data).toEqual([
      expect.objectContaining({
        action: 'profile.edit',
        actor: { id: editor.member_id, name: 'Editor MCP', key_id: editor.id },
        detail: { fields: ['notes'], via: 'mcp' },
      }),
    ]);
  });
});

describe('what a profile’s sessions leave: runs, a batch, artifacts, help requests, events, webhooks', () => {
  let runner: Awaited<ReturnType<typeof madeKey>>;
  let editor: Awaited<ReturnType<typeof madeKey>>;
  let batchId = '';
  const of: Record<'a1' | 'b1', { run: string; session: string; help: string }> = {
    a1: { run: '', session: '', help: '' },
    b1: { run: '', session: '', help: '' },
  };

  beforeAll(async () => {
    runner = await madeKey('runner', { tags: ['team-a'] }, 'Agent A2');
    editor = await madeKey('editor', { tags: ['team-b'] }, 'Editor B');
    // One batch on a profile of each scope: a screenshot (an artifact), then a question for a person.
    const script = {
      timeout_ms: 60_000,
      steps: [
        { action: 'screenshot', name: 'shot' },
        { action: 'ask_human', reason: 'check it', name: 'checked' },
      ],
    };
    const bulk = await owner(
      'POST',
      '/v1/profiles/bulk',
      json({ select: { ids: [ids.a1, ids.b1] }, action: 'run', script }),
    );
    batchId = ((await bulk.json()) as { batch_id: string }).batch_id;
    for (;;) {
      const open = (await (await owner('GET', '/v1/help-requests?status=open')).json()).data as {
        id: string;
        profile_id: string;
        run_id: string;
        session_id: string;
      }[];
      if (open.length === 2) {
        for (const request of open) {
          of[request.profile_id === ids.a1 ? 'a1' : 'b1'] = {
            run: request.run_id,
            session: request.session_id,
            help: request.id,
          };
        }
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterAll(async () => {
    for (const { help } of Object.values(of)) {
      if (help) await owner('POST', `/v1/help-requests/${help}/answer`, json({ outcome: 'done' }));
    }
  });

  it('answers another scope’s as unknown ids, and lists none of it', async () => {
    for (const [member, theirs] of [
      [runner, of.b1],
      [editor, of.a1],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', `/v1/automation/status?run_id=${theirs.run}`, undefined],
        ['GET', `/v1/automation/runs/${theirs.run}/artifacts/shot`, undefined],
        ['GET', `/v1/help-requests/${theirs.help}`, undefined],
        ['POST', `/v1/help-requests/${theirs.help}/answer`, { outcome: 'declined' }],
        ['GET', `/v1/sessions/${theirs.session}`, undefined],
        ['GET', `/v1/sessions/${theirs.session}/thumbnail`, undefined],
        // The batch holds a profile of each scope: it is all of neither's.
        ['GET', `/v1/automation/batches/${batchId}`, undefined],
        ['POST', `/v1/automation/batches/${batchId}/pause`, {}],
        ['POST', `/v1/automation/batches/${batchId}/cancel`, {}],
        ['GET', `/v1/automation/batches/${batchId}/export?format=json`, undefined],
      ] as const) {
        const response = await member.as(method, path, body === undefined ? {} : json(body));
        expect(response.status, `${member.role} ${method} ${path}`).toBe(404);
      }
      const listed = async (path: string) => JSON.stringify(await (await member.as('GET', path)).json());
      expect(await listed('/v1/help-requests')).not.toContain(theirs.help);
      expect(await listed('/v1/automation/status')).not.toContain(theirs.run);
      expect(await listed('/v1/automation/batches')).not.toContain(batchId);
    }
    const own = await runner.as('GET', `/v1/automation/runs/${of.a1.run}/artifacts/shot`);
    expect(own.status).toBe(200);
    expect((await (await runner.as('GET', `/v1/help-requests/${of.a1.help}`)).json()).status).toBe('open');
    expect((await (await owner('GET', `/v1/automation/batches/${batchId}`)).json()).paused).toBe(false);
  });

  it('follows only its scope’s events, and sees no webhook of another scope nor its deliveries', async () => {
    const stream = await openEventStream(service.baseUrl, runner.key, { 'Last-Event-ID': '0' });
    const seen: string[] = [];
    await stream.nextEvent((event) => {
      seen.push(JSON.stringify(event.data));
      return event.type === 'session.help_requested';
    });
    stream.close();
    expect(seen.join('\n')).not.toMatch(new RegExp(`${ids.b1}|${ids.plain}`));
    expect(seen.join('\n')).toContain(ids.a1);

    const hook = json({ url: 'http://127.0.0.1:9/hook', event_types: ['profile.updated'] });
    const ownersHook = ((await (await owner('POST', '/v1/webhooks', hook)).json()) as { id: string }).id;
    const editorsHook = ((await (await editor.as('POST', '/v1/webhooks', hook)).json()) as { id: string }).id;
    expect((await editor.as('GET', `/v1/webhooks/${ownersHook}/deliveries`)).status).toBe(404);
    expect((await editor.as('DELETE', `/v1/webhooks/${ownersHook}`)).status).toBe(404);
    expect(JSON.stringify(await (await editor.as('GET', '/v1/webhooks')).json())).not.toContain(ownersHook);
    for (const id of [ids.a1, ids.b1]) await owner('PATCH', `/v1/profiles/${id}`, json({ notes: 'seen' }));
    const deliveries = async (as: typeof owner, hookId: string) =>
      ((await (await as('GET', `/v1/webhooks/${hookId}/deliveries`)).json()) as { data: unknown[] }).data
        .length;
    expect(await deliveries(owner, ownersHook)).toBe(2);
    expect(await deliveries(editor.as, editorsHook)).toBe(1);
  });
});
