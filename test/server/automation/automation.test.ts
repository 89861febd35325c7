import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import type { Step } from '../../../lib/api/inputs/automation';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { artifactFile } from '../../../server/automation/artifact-files';
import { processesWithUserDataDir } from '../../support/browser-fixtures';
import { freePort } from '../../support/free-port';
import { type ServiceHandle, startService } from '../../support/harness';

/** The test pages are served on loopback, which sessions reach only when the operator allows it. */
const LOOPBACK_PAGES = { EGRESS_ALLOW: 'loopback' };

const FORM_PAGE = `<!doctype html><title>Form</title>
<input id="q" aria-label="Query"><button id="go">Go</button>
<a id="docs" href="/docs">Docs</a><p id="out"></p>
<script>
  document.getElementById('go').onclick = () => {
    const value = document.getElementById('q').value;
    setTimeout(() => {
      document.getElementById('out').textContent = 'You searched ' + value;
      document.title = 'Searched ' + value;
    }, 200);
  };
</script>`;

let service: ServiceHandle;
let api: ApiClient;
let key: string;
let site: Server;
let origin: string;

beforeAll(async () => {
  site = createServer((_req, res) => res.setHeader('Content-Type', 'text/html').end(FORM_PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  service = await startService({ env: LOOPBACK_PAGES });
  key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
});

afterAll(async () => {
  await service?.close();
  if (service) await rm(service.dataDir, { recursive: true, force: true });
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** Follows a run with the long poll until it ends, recording every version seen. */
async function follow(run: AutomationRun): Promise<{ final: AutomationRun; versions: number[] }> {
  const versions = [run.version];
  let current = run;
  const deadline = Date.now() + 60_000;
  while (!['succeeded', 'failed', 'cancelled'].includes(current.status) && Date.now() < deadline) {
    current = await api.getRun(run.id, { wait: 10, after_version: current.version });
    versions.push(current.version);
  }
  return { final: current, versions };
}

describe('automation', () => {
  it('answers once the run has finished, in one request, with until=finished', async () => {
    const profile = await api.createProfile({ name: 'Until finished' });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'goto', url: `${origin}/` },
          { action: 'wait_for', ms: 300 },
        ],
      },
    });
    expect(queued.status).toBe('queued');
    const finished = await api.getRun(queued.id, { wait: 25, until: 'finished' });
    expect(finished.status).toBe('succeeded');
    expect(finished.steps.map((step) => step.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('runs every kind of step on a profile, starting and stopping a session for itself', async () => {
    const profile = await api.createProfile({ name: 'Runner' });
    const steps: Step[] = [
      { action: 'goto', url: `${origin}/` },
      { action: 'type', selector: '#q', text: 'pilots' },
      { action: 'click', selector: '#go' },
      { action: 'wait_for', selector: '#out:not(:empty)' },
      { action: 'wait_for', ms: 50 },
      { action: 'extract', selector: '#out', name: 'result' },
      { action: 'extract', selector: '#docs', attribute: 'href', name: 'link' },
      { action: 'evaluate', expression: 'document.title', name: 'title' },
      { action: 'evaluate', expression: '1 + 1' },
      { action: 'screenshot', name: 'page' },
    ];
    const queued = await api.runAutomation({ profile_id: profile.id, name: 'Search', script: { steps } });
    expect(queued).toMatchObject({ status: 'queued', name: 'Search', profile_id: profile.id });

    const { final, versions } = await follow(queued);
    expect(final.error).toBeNull();
    expect(final.status).toBe('succeeded');
    expect(final.output).toMatchObject({
      result: 'You searched pilots',
      link: '/docs',
      title: 'Searched pilots',
      page: `/v1/automation/runs/${final.id}/artifacts/page`,
    });
    expect(final.steps.map((s) => s.status)).toEqual(steps.map(() => 'succeeded'));
    // Each step names the output it wrote, so that outputs can be read in step order.
    expect(final.steps.flatMap((s) => s.output_name ?? [])).toEqual(['result', 'link', 'title', 'page']);
    for (const step of final.steps) expect(Date.parse(step.finished_at ?? '')).toBeGreaterThan(0);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(final.version).toBeGreaterThan(steps.length * 2);

    const png = new Uint8Array(await (await api.getArtifact(final.id, 'page')).arrayBuffer());
    expect([...png.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    // Kept as a file of the account in the data dir, not in a table row.
    const { id: accountId } = await api.getAccount();
    const file = artifactFile(service.dataDir, { accountId, runId: final.id, name: 'page' });
    expect(new Uint8Array(readFileSync(file))).toEqual(png);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const session = await api.getSession(final.session_id as string);
    expect(session).toMatchObject({ status: 'stopped', stop_reason: 'run_finished' });
    expect(processesWithUserDataDir(path.join(service.dataDir, 'profiles', profile.id))).toEqual([]);
  });

  it('fails at the step that fails, says why, and skips the rest', async () => {
    const profile = await api.createProfile({ name: 'Failing' });
    const session = await api.startSession({ profile_id: profile.id });
    const queued = await api.runAutomation({
      session_id: session.id,
      script: {
        steps: [
          { action: 'goto', url: `${origin}/` },
          { action: 'evaluate', expression: 'missingFunction()' },
          { action: 'screenshot', name: 'never' },
        ],
      },
    });
    const { final } = await follow(queued);
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(/^Step 2 \(evaluate .*missingFunction is not defined/);
    expect(final.steps.map((s) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
    // The run used the profile's own session and left it running.
    expect(await api.getSession(session.id)).toMatchObject({ status: 'running' });
    await api.stopSession({ session_id: session.id });
  });

  it('fails a goto through a dead proxy as proxy_unreachable, naming the proxy, not as a missing element', async () => {
    const dead = await freePort();
    const profile = await api.createProfile({
      name: 'Dead proxy',
      proxy: `http://user:pw@127.0.0.1:${dead}`,
    });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'goto', url: `${origin}/` },
          { action: 'extract', selector: '#q', name: 'field', attribute: 'id' },
        ],
      },
    });
    const { final } = await follow(queued);
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(
      `Step 1 (goto '${origin}/') failed: proxy_unreachable: the profile's proxy http://user@127.0.0.1:${dead} cannot be reached (the connection was refused)`,
    );
    expect(final.error).not.toContain('pw');
    expect(final.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('holds a long poll until the run changes, and answers at once when it already has', async () => {
    const profile = await api.createProfile({ name: 'Polled' });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: { steps: [{ action: 'wait_for', ms: 1500 }] },
    });
    const { final } = await follow(queued);
    // The run has ended: it never changes again. A poll past its version is held the whole wait; one behind it
    // answers at once, so it settles first, long before the held one (were it held too, 25 s against 3 s).
    const settled: string[] = [];
    const held = api
      .getRun(final.id, { wait: 3, after_version: final.version })
      .then((run) => settled.push(`held ${run.version}`));
    const behind = api
      .getRun(final.id, { wait: 25, after_version: final.version - 1 })
      .then((run) => settled.push(`behind ${run.version}`));
    const startedAt = Date.now();
    await Promise.all([held, behind]);
    expect(settled).toEqual([`behind ${final.version}`, `held ${final.version}`]);
    // Slowness can only lengthen this; the held poll answered no sooner than its wait.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2_900);
  });

  it('cancels a running run', async () => {
    const profile = await api.createProfile({ name: 'Cancelled' });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'goto', url: `${origin}/` },
          { action: 'wait_for', ms: 30000 },
        ],
      },
    });
    // Cancelled while on its long step: a cancel between two steps fails none, it skips the rest.
    const running = await untilStepRuns(queued.id, 1);
    expect(running.status).toBe('running');
    const answered = await api.cancelRun(queued.id);
    // The answer is the final state when the run wound down in time (on a busy machine it may still be ending).
    const { final } = await follow(answered);
    expect(final).toMatchObject({ status: 'cancelled', finished_at: expect.any(String) });
    expect(final.error).toMatch(/cancelled/);
    // Wound down: the step it was on failed, and the session it started for itself is stopped, its browser gone.
    expect(final.steps.map((step) => step.status).join(' ')).toMatch(/^(succeeded )*failed( skipped)*$/);
    expect(await api.getSession(final.session_id as string)).toMatchObject({ status: 'stopped' });
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'idle', session_id: null });
    expect(processesWithUserDataDir(path.join(service.dataDir, 'profiles', profile.id))).toEqual([]);
  });

  it('lists a profile’s run history newest first, in pages, and runs one again; another account sees none of it', async () => {
    const [mine, other] = await Promise.all([
      api.createProfile({ name: 'History' }),
      api.createProfile({ name: 'Not in the history' }),
    ]);
    const script = { steps: [{ action: 'goto' as const, url: `${origin}/` }] };
    const ran: AutomationRun[] = [];
    for (const name of ['first', 'second', 'third']) {
      const queued = await api.runAutomation({ profile_id: mine.id, script, name });
      ran.push(await api.getRun(queued.id, { wait: 25, until: 'finished' }));
    }
    await api.runAutomation({ profile_id: other.id, script });

    const firstPage = await api.listRuns({ profile_id: mine.id, limit: 2 });
    expect(firstPage.data.map((run) => [run.name, run.profile_name])).toEqual([
      ['third', 'History'],
      ['second', 'History'],
    ]);
    const secondPage = await api.listRuns({
      profile_id: mine.id,
      limit: 2,
      cursor: firstPage.next_cursor ?? '',
    });
    expect(secondPage.data.map((run) => run.name)).toEqual(['first']);
    expect(secondPage.next_cursor).toBeNull();

    const again = await api.rerunRun(ran[0]?.id ?? '');
    expect(again).toMatchObject({
      profile_id: mine.id,
      profile_name: 'History',
      name: 'first',
      status: 'queued',
    });
    expect(again.id).not.toBe(ran[0]?.id);
    const finished = await api.getRun(again.id, { wait: 25, until: 'finished' });
    expect(finished.steps.map((step) => step.action)).toEqual(['goto']);
    expect(finished.status).toBe('succeeded');
    expect((await api.listRuns({ profile_id: mine.id })).data.map((run) => run.id)[0]).toBe(again.id);

    const stranger = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    expect((await stranger.listRuns({ profile_id: mine.id })).data).toEqual([]);
    const refused = await stranger.rerunRun(again.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(404);
    expect((await api.listRuns({ profile_id: mine.id })).data).toHaveLength(4);
  });

  it('refuses a session that is not running, and unknown targets', async () => {
    const profile = await api.createProfile({ name: 'Stopped' });
    const session = await api.startSession({ profile_id: profile.id });
    await api.stopSession({ session_id: session.id });
    const script = { steps: [{ action: 'wait_for' as const, ms: 1 }] };
    const refusal = await api.runAutomation({ session_id: session.id, script }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 409, code: 'session_not_running' });
    expect(
      await api.runAutomation({ profile_id: 'prf_nope', script }).catch((e: unknown) => e),
    ).toMatchObject({
      status: 404,
    });
    expect(await api.getRun('run_nope').catch((e: unknown) => e)).toMatchObject({ status: 404 });
  });
});

/** Long-polls a run until its first step is running. */
async function untilStepRuns(runId: string, index = 0): Promise<AutomationRun> {
  const deadline = Date.now() + 20_000;
  let run = await api.getRun(runId);
  while (run.steps[index]?.status !== 'running' && Date.now() < deadline) {
    run = await api.getRun(runId, { wait: 5, after_version: run.version });
  }
  return run;
}

describe('automation across a restart', () => {
  it('fails the runs a killed service left running, and leaves no session running', async () => {
    const profile = await api.createProfile({ name: 'Interrupted' });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: { steps: [{ action: 'wait_for', ms: 30000 }] },
    });
    await untilStepRuns(queued.id);
    await service.kill();
    service = await startService({ dataDir: service.dataDir, env: LOOPBACK_PAGES });
    api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });

    const run = await api.getRun(queued.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/restarted/);
    expect(run.steps[0]?.status).toBe('failed');
    expect((await api.listRuns({ status: 'active' })).data).toEqual([]);
    expect((await api.listSessions({ status: 'running' })).data).toEqual([]);
  });

  it('on SIGTERM ends the running run as failed and stops its browser', async () => {
    const profile = await api.createProfile({ name: 'Shut down' });
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: { steps: [{ action: 'wait_for', ms: 30000 }] },
    });
    const running = await untilStepRuns(queued.id);
    expect(await service.stop()).toBe(0);
    expect(processesWithUserDataDir(path.join(service.dataDir, 'profiles', profile.id))).toEqual([]);
    service = await startService({ dataDir: service.dataDir, env: LOOPBACK_PAGES });
    api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });

    expect(await api.getRun(queued.id)).toMatchObject({
      status: 'failed',
      error: 'The service shut down while this run was running.',
    });
    expect(await api.getSession(running.session_id as string)).toMatchObject({
      status: 'stopped',
      stop_reason: 'service_shutdown',
    });
  });
});
