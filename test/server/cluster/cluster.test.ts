import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import type { Session } from '../../../lib/api/schemas/sessions';
import { eventually } from '../../e2e/support/wait';
import { openEventStream } from '../../support/event-stream';
import { freePort } from '../../support/free-port';
import {
  createDataDir,
  JSON_HEADERS,
  requester,
  runCli,
  type ServiceHandle,
  startService,
} from '../../support/harness';
import { nginxForTests, startNginx } from '../../support/nginx';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/*
 * Three service processes on one real PostgreSQL, each with its own data dir and room for one browser: any of
 * them answers any request; sessions go where there is room; DevTools and long polls work through any of them;
 * a process killed with -9 has its sessions and runs marked within 30 s; one told to stop leaves cleanly.
 */

const bin = postgresForTests();
const nginxBin = nginxForTests();
let postgres: PostgresServer;
let nginxPort: number;
let db: pg.Client;
/** What every process of the cluster is started with (those a case starts of its own too). */
let clusterEnv: Record<string, string>;
/** The three processes every case shares; a case that kills or stops one starts its own to do it to. */
const nodes: ServiceHandle[] = [];
/** Every key a case made: their sessions are stopped before the next case, which finds every slot free. */
const keys: string[] = [];
const startedAt = Date.now();

const nodeIdOf = (node: ServiceHandle) => readFileSync(path.join(node.dataDir, 'node-id'), 'utf8').trim();
const nodeWithId = (id: string | null) => nodes.find((node) => nodeIdOf(node) === id) as ServiceHandle;
const nodeOtherThan = (id: string | null) => nodes.find((node) => nodeIdOf(node) !== id) as ServiceHandle;

/** An account of its own for a case: its key, and requests, profiles and sessions made with it. */
async function newAccount(plan: 'free' | 'enterprise', name: string) {
  const key = await (nodes[0] as ServiceHandle).createKey(plan, name);
  keys.push(key);
  const on = (node: ServiceHandle) => requester(node.baseUrl, key);
  return {
    key,
    on,
    async createProfile(profile: string): Promise<string> {
      const response = await on(nodes[0] as ServiceHandle)('POST', '/v1/profiles', {
        headers: JSON_HEADERS,
        body: JSON.stringify({ name: profile }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    /** Asks `node` to start the profile: it runs there while that process has room. */
    start(node: ServiceHandle, profileId: string): Promise<Response> {
      return on(node)('POST', '/v1/sessions/start', {
        headers: JSON_HEADERS,
        body: JSON.stringify({ profile_id: profileId, headless: true }),
      });
    },
  };
}
type Account = Awaited<ReturnType<typeof newAccount>>;

/** A new profile of the account, running on `node`. */
async function runningSession(account: Account, node: ServiceHandle, name: string): Promise<Session> {
  const response = await account.start(node, await account.createProfile(name));
  expect(response.status).toBe(201);
  return (await response.json()) as Session;
}

/** Stops every session the cases' accounts still run, so that each case starts with every slot free. */
async function stopEverySession(): Promise<void> {
  for (const key of keys) {
    const send = requester((nodes[0] as ServiceHandle).baseUrl, key);
    const { data } = (await (await send('GET', '/v1/sessions?status=running')).json()) as { data: Session[] };
    for (const session of data) await send('DELETE', `/v1/sessions/stop?session_id=${session.id}`);
  }
}

async function nodeOfSession(sessionId: string): Promise<string | null> {
  const { rows } = await db.query<{ node_id: string | null }>('select node_id from sessions where id = $1', [
    sessionId,
  ]);
  return rows[0]?.node_id ?? null;
}

/** A run of a minute on the profile's session, asked of `node`; resolves once it runs. */
async function startLongRun(
  account: Account,
  node: ServiceHandle,
  profileId: string,
): Promise<AutomationRun> {
  const run = (await (
    await account.on(node)('POST', '/v1/automation/run', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ profile_id: profileId, script: { steps: [{ action: 'wait_for', ms: 60000 }] } }),
    })
  ).json()) as AutomationRun;
  await eventually('the run to start on its session’s process', async () => {
    const { rows } = await db.query('select status from automation_runs where id = $1', [run.id]);
    return rows[0]?.status === 'running' ? true : undefined;
  });
  return run;
}

describe.skipIf(!bin)('a cluster of three service processes on one PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    nginxPort = await freePort();
    clusterEnv = {
      DATABASE_URL: postgres.url,
      MAX_BROWSERS: '1',
      HEADLESS: 'true',
      // Lost after 6 s rather than 15: the kill below is noticed sooner, and a loaded machine's stall is still not a loss.
      NODE_LOST_AFTER: '6',
      // As docs/cluster/nginx.conf says: the address people use, and nginx's own.
      PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
      TRUST_PROXY: '127.0.0.1',
    };
    // All at once on the fresh database: one migrates it, the others wait for it and find it done.
    nodes.push(...(await Promise.all([0, 1, 2].map(() => startService({ env: clusterEnv })))));
  });
  beforeEach(stopEverySession);
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await db?.end();
    await postgres?.stop();
    console.log(`the cluster test took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  });

  it('takes keys from the command line on the shared database, from a machine with no process running', async () => {
    const elsewhere = await createDataDir();
    try {
      const made = await runCli(['keys', 'create', '--plan', 'premium', '--name', 'from afar'], {
        dataDir: elsewhere,
        env: { DATABASE_URL: postgres.url },
      });
      expect(made.code).toBe(0);
      const madeKey = made.stdout.trim();
      for (const node of nodes)
        expect((await requester(node.baseUrl, madeKey)('GET', '/v1/account')).status).toBe(200);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('keeps the plan’s session cap across the processes', async () => {
    const free = await newAccount('free', 'cluster free');
    const freeProfiles: string[] = [];
    for (const name of ['f1', 'f2', 'f3']) freeProfiles.push(await free.createProfile(name));
    // Free holds 2 sessions at once: two processes start one each, the third refuses the third.
    const statuses: number[] = [];
    const started: Session[] = [];
    for (const [index, profileId] of freeProfiles.entries()) {
      const response = await free.start(nodes[index] as ServiceHandle, profileId);
      statuses.push(response.status);
      if (response.status === 201) started.push((await response.json()) as Session);
      else expect(await response.json()).toMatchObject({ code: 'session_limit' });
    }
    expect(statuses).toEqual([201, 201, 429]);
    // Stopped through a process that does not run it.
    for (const session of started) {
      const other = nodeOtherThan(await nodeOfSession(session.id));
      const stopped = await free.on(other)('DELETE', `/v1/sessions/stop?session_id=${session.id}`);
      expect(await stopped.json()).toMatchObject({ status: 'stopped', stop_reason: 'user' });
    }
  });

  it('places each start on a process with room, whichever received it, and says when none has', async () => {
    const [a] = nodes as [ServiceHandle];
    const account = await newAccount('enterprise', 'cluster placing');
    const profiles = await Promise.all(['one', 'two', 'three', 'four'].map(account.createProfile));
    const placed: Session[] = [];
    for (const profileId of profiles.slice(0, 3)) {
      const response = await account.start(a, profileId);
      expect(response.status).toBe(201);
      placed.push((await response.json()) as Session);
    }
    const where = await Promise.all(placed.map((session) => nodeOfSession(session.id)));
    expect(new Set(where)).toEqual(new Set(nodes.map(nodeIdOf)));

    const full = await account.start(a, profiles[3] as string);
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await full.json()).toMatchObject({
      code: 'at_capacity',
      detail: expect.stringMatching(/as many browsers as its machines can hold .*try again in a minute/),
    });
  });

  it('drives a browser through the cdp_url of a process that does not run it, with Playwright and Puppeteer', async () => {
    const account = await newAccount('enterprise', 'cluster devtools');
    const session = await runningSession(account, nodes[0] as ServiceHandle, 'driven');
    const asker = nodeOtherThan(await nodeOfSession(session.id));
    const seen = (await (await account.on(asker)('GET', `/v1/sessions/${session.id}`)).json()) as Session;
    expect(seen.cdp_url?.startsWith(asker.baseUrl.replace('http', 'ws'))).toBe(true);

    const browser = await chromium.connectOverCDP(seen.cdp_url as string);
    try {
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      expect(await page.evaluate(() => 6 * 7)).toBe(42);
      await page.close();
    } finally {
      await browser.close();
    }
    const viaPuppeteer = await puppeteer.connect({ browserWSEndpoint: seen.cdp_url as string });
    try {
      expect(await viaPuppeteer.version()).toMatch(/Chrome/);
    } finally {
      await viaPuppeteer.disconnect();
    }
  });

  it('shows a live view through a process that does not run the session, and relays the owner’s refusal', async () => {
    const account = await newAccount('enterprise', 'cluster live view');
    const session = await runningSession(account, nodes[0] as ServiceHandle, 'watched');
    const asker = nodeOtherThan(await nodeOfSession(session.id));
    const seen = (await (await account.on(asker)('GET', `/v1/sessions/${session.id}`)).json()) as Session;
    const address = seen.live_view_readonly_url as string;
    expect(address.startsWith(`${asker.baseUrl}/live/${session.id}/v.`)).toBe(true);
    expect((await fetch(address)).status).toBe(200);

    const socket = new WebSocket(`${address.replace(/^http/, 'ws')}/socket`);
    const received: { type: string }[] = [];
    socket.on('message', (data) => received.push(JSON.parse(data.toString()) as { type: string }));
    await eventually('a frame of the session through the relay', async () =>
      received.some((message) => message.type === 'frame') ? true : undefined,
    );
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'text', text: 'typed' }));
    expect(await closed).toBe(1008);
  });

  it.skipIf(!nginxBin)(
    'serves through docs/cluster/nginx.conf: requests, DevTools at a cdp_url on nginx, and a long poll',
    async () => {
      const account = await newAccount('enterprise', 'cluster nginx');
      const session = await runningSession(account, nodes[0] as ServiceHandle, 'behind nginx');
      const nginx = await startNginx(
        nginxBin as string,
        nodes.map((node) => `127.0.0.1:${node.port}`),
        nginxPort,
      );
      try {
        const through = requester(nginx.url, account.key);
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => through('GET', '/v1/profiles?limit=1')),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
        const seen = (await (await through('GET', `/v1/sessions/${session.id}`)).json()) as Session;
        expect(seen.cdp_url?.startsWith(nginx.url.replace('http', 'ws'))).toBe(true);
        const browser = await chromium.connectOverCDP(seen.cdp_url as string);
        try {
          const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
          expect(await page.evaluate(() => navigator.userAgent)).toMatch(/Chrome\//);
          await page.close();
        } finally {
          await browser.close();
        }
        const run = (await (
          await through('POST', '/v1/automation/run', {
            headers: JSON_HEADERS,
            body: JSON.stringify({
              profile_id: session.profile_id,
              script: { steps: [{ action: 'wait_for', ms: 500 }] },
            }),
          })
        ).json()) as AutomationRun;
        const finished = await through(
          'GET',
          `/v1/automation/status?run_id=${run.id}&wait=25&until=finished`,
        );
        expect(await finished.json()).toMatchObject({ status: 'succeeded' });
      } finally {
        await nginx.stop();
      }
    },
  );

  it('runs a script on the process that runs the profile’s session, and a long poll on another answers within a second', async () => {
    const account = await newAccount('enterprise', 'cluster runs');
    const session = await runningSession(account, nodes[0] as ServiceHandle, 'scripted');
    const owner = await nodeOfSession(session.id);
    const submitter = nodeOtherThan(owner);
    const poller = nodes.find((node) => node !== submitter && nodeIdOf(node) !== owner) as ServiceHandle;
    const created = await account.on(submitter)('POST', '/v1/automation/run', {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        profile_id: session.profile_id,
        script: {
          steps: [
            { action: 'wait_for', ms: 1500 },
            { action: 'evaluate', expression: '1 + 1', name: 'two' },
          ],
        },
      }),
    });
    expect(created.status).toBe(202);
    const run = (await created.json()) as AutomationRun;
    const answered = await account.on(poller)(
      'GET',
      `/v1/automation/status?run_id=${run.id}&wait=25&until=finished`,
    );
    const answeredAt = Date.now();
    const finished = (await answered.json()) as AutomationRun;
    expect(finished).toMatchObject({ status: 'succeeded', session_id: session.id, output: { two: 2 } });
    const lag = answeredAt - Date.parse(finished.finished_at as string);
    console.log(`a long poll on another process answered ${lag} ms after the run finished`);
    expect(lag).toBeLessThan(1000);
    const { rows } = await db.query('select node_id from automation_runs where id = $1', [run.id]);
    expect(rows[0]?.node_id).toBe(owner);
  });

  it('wakes an event stream on one process with a change made on another, within a second', async () => {
    const [a, b] = nodes as [ServiceHandle, ServiceHandle];
    const account = await newAccount('enterprise', 'cluster events');
    const stream = await openEventStream(b.baseUrl, account.key);
    try {
      const create = async (name: string) => {
        const made = await account.on(a)('POST', '/v1/profiles', {
          headers: JSON_HEADERS,
          body: JSON.stringify({ name }),
        });
        return ((await made.json()) as { id: string }).id;
      };
      // Changes until one arrives: from then on the stream surely listens (an arrival is a wake-up from a).
      let listening = false;
      const firstArrival = stream
        .nextEvent((event) => event.type === 'profile.created')
        .then(() => {
          listening = true;
        });
      while (!listening) {
        await create('Warm-up');
        await Promise.race([firstArrival, new Promise((resolve) => setTimeout(resolve, 500))]);
      }
      const sentAt = Date.now();
      const id = await create('Woken');
      const event = await stream.nextEvent(
        (candidate) => candidate.type === 'profile.created' && (candidate.data as { id?: string }).id === id,
      );
      const lag = Date.now() - sentAt;
      console.log(`an event stream on another process had the change ${lag} ms after it was asked for`);
      expect(event.data).toMatchObject({ id });
      expect(lag).toBeLessThan(1000);
    } finally {
      stream.close();
    }
  });

  it('cancels a run through a process that does not run it', async () => {
    const account = await newAccount('enterprise', 'cluster cancel');
    const session = await runningSession(account, nodes[0] as ServiceHandle, 'cancelled');
    const other = nodeOtherThan(await nodeOfSession(session.id));
    const run = await startLongRun(account, other, session.profile_id);
    const cancelled = await account.on(other)('POST', `/v1/automation/runs/${run.id}/cancel`);
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });
  });

  it('reads and writes the cookies of a running session through a process that does not run it', async () => {
    const account = await newAccount('enterprise', 'cluster cookies');
    const session = await runningSession(account, nodes[0] as ServiceHandle, 'cookie jar');
    const owner = await nodeOfSession(session.id);
    const other = nodeOtherThan(owner);
    const runner = nodeWithId(owner);
    const sessionsOfProfile = async () =>
      (await db.query('select id from sessions where profile_id = $1', [session.profile_id])).rowCount;
    const before = await sessionsOfProfile();
    const cookiesPath = `/v1/profiles/${session.profile_id}/cookies`;
    const put = await account.on(other)('PUT', cookiesPath, {
      headers: JSON_HEADERS,
      body: JSON.stringify([{ name: 'carried', value: 'across', domain: '127.0.0.1' }]),
    });
    expect(await put.json()).toEqual({ imported: 1, session_cookies_not_kept: 0, replaced: false });
    for (const node of [runner, other]) {
      const jar = (await (await account.on(node)('GET', cookiesPath)).json()) as {
        name: string;
        value: string;
      }[];
      expect(jar).toContainEqual(expect.objectContaining({ name: 'carried', value: 'across' }));
    }
    // The running session's browser was used: no other was started for it.
    expect(await sessionsOfProfile()).toBe(before);
  });

  it('marks the sessions of a process killed with -9 within 30 s, queues its runs again, and another takes its starts', async () => {
    // A fourth process, to kill; with the three others, every slot of the cluster is taken.
    const victim = await startService({ env: clusterEnv });
    try {
      const account = await newAccount('enterprise', 'cluster killed');
      const lost = await runningSession(account, victim, 'lost');
      const [survivor] = nodes as [ServiceHandle];
      const survivorsSession = await runningSession(account, survivor, 'kept');
      for (const node of nodes.slice(1)) await runningSession(account, node, 'filling');
      const run = await startLongRun(account, survivor, lost.profile_id);

      const killedAt = Date.now();
      await victim.kill();
      const stopped = await eventually(
        'the killed process’s session to be marked lost',
        async () => {
          const current = (await (
            await account.on(survivor)('GET', `/v1/sessions/${lost.id}`)
          ).json()) as Session;
          return current.status === 'stopped' ? current : undefined;
        },
        40_000,
      );
      const markedAfter = Date.now() - killedAt;
      console.log(`a process killed with -9 had its session marked node_lost ${markedAfter} ms later`);
      expect(stopped.stop_reason).toBe('node_lost');
      expect(markedAfter).toBeLessThan(30_000);
      // A lost node is a passing failure: the run waits in line to run again, every slot being taken.
      const requeued = (await (
        await account.on(survivor)('GET', `/v1/automation/status?run_id=${run.id}`)
      ).json()) as AutomationRun;
      expect(requeued).toMatchObject({ status: 'queued', retries: 1 });
      const cancelled = await account.on(survivor)('POST', `/v1/automation/runs/${run.id}/cancel`);
      expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });

      // The profile is free again: with a slot made free on a live process, it starts there.
      const freed = await account.on(nodes[1] as ServiceHandle)(
        'DELETE',
        `/v1/sessions/stop?session_id=${survivorsSession.id}`,
      );
      expect(freed.status).toBe(200);
      const again = await account.start(nodes[1] as ServiceHandle, lost.profile_id);
      expect(again.status).toBe(201);
    } finally {
      await victim.close();
    }
  }, 90_000);

  it('a process told to stop takes no new sessions, stops its own and leaves; nothing stays running', async () => {
    // A fourth process, to stop: the three others stay for the other cases.
    const leaving = await startService({ env: clusterEnv });
    try {
      const staying = nodes[1] as ServiceHandle;
      const account = await newAccount('enterprise', 'cluster leaving');
      await runningSession(account, leaving, 'on the leaving process');
      await runningSession(account, staying, 'on the staying process');
      const leavingId = nodeIdOf(leaving);
      expect(await leaving.stop()).toBe(0);
      const { rows: left } = await db.query('select id from nodes where id = $1', [leavingId]);
      expect(left).toEqual([]);
      const { rows: live } = await db.query(
        `select id, stop_reason from sessions where node_id = $1 and status in ('starting', 'running', 'stopping')`,
        [leavingId],
      );
      expect(live).toEqual([]);
      const { rows: stopped } = await db.query<{ stop_reason: string }>(
        `select stop_reason from sessions where node_id = $1 and status = 'stopped' order by stopped_at desc limit 1`,
        [leavingId],
      );
      expect(stopped[0]?.stop_reason).toBe('service_shutdown');
      const listed = (await (await account.on(staying)('GET', '/v1/sessions?status=running')).json()) as {
        data: Session[];
      };
      for (const session of listed.data) expect(await nodeOfSession(session.id)).toBe(nodeIdOf(staying));
    } finally {
      await leaving.close();
    }
  }, 90_000);
});
