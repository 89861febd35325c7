import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../../lib/api/inputs/automation';
import { type RunScriptOptions, runScript, type StepOutcome } from '../../../server/automation/runner';
import { CHROMIUM } from '../../support/browser-fixtures';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const PAGES: Record<string, string> = {
  '/form': `<!doctype html><title>Form</title>
    <input id="name">
    <button class="go" hidden onclick="document.title = 'hidden button'">Go</button>
    <button class="go" onclick="
      document.title = 'Hello ' + document.getElementById('name').value;
      document.getElementById('greeting').textContent = '  Hello, ' + document.getElementById('name').value + '!  ';
    ">Go</button>
    <p id="greeting"></p>
    <a id="link" href="/next">Next</a>
    <ul><li> first </li><li>second</li></ul>
    <script>
      setTimeout(() => {
        const late = document.createElement('div');
        late.id = 'late';
        late.textContent = 'arrived';
        document.body.append(late);
      }, 300);
    </script>`,
  '/next': '<!doctype html><title>Next</title><h1>  Next page  </h1>',
};

let browserProcess: ChildProcess;
let userDataDir: string;
let devtoolsOrigin: string;
let cdpUrl: string;
let pageServer: Server;
let origin: string;

async function devtoolsPort(dir: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [port] = (await readFile(join(dir, 'DevToolsActivePort'), 'utf8').catch(() => '')).split('\n');
    if (port) return port;
    await sleep(25);
  }
  throw new Error('Chromium did not write DevToolsActivePort');
}

async function devtoolsJson<T>(path: string): Promise<T> {
  return (await fetch(`${devtoolsOrigin}${path}`)).json() as Promise<T>;
}

async function pageTargetIds(): Promise<string[]> {
  const targets = await devtoolsJson<{ id: string; type: string }[]>('/json/list');
  return targets
    .filter((target) => target.type === 'page')
    .map((target) => target.id)
    .sort();
}

// The first run connects right after Chromium started, while its first tab is still opening: the case where
// Playwright's connectOverCDP can hang and the runner's second connect attempt matters (pages/open-tab.ts).
beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'runner-test-'));
  browserProcess = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    { stdio: 'ignore' },
  );
  devtoolsOrigin = `http://127.0.0.1:${await devtoolsPort(userDataDir)}`;
  cdpUrl = (await devtoolsJson<{ webSocketDebuggerUrl: string }>('/json/version')).webSocketDebuggerUrl;

  pageServer = createServer((request, response) => {
    const page = PAGES[request.url ?? ''];
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  pageServer.listen(0, '127.0.0.1');
  await once(pageServer, 'listening');
  origin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  pageServer?.close();
  if (browserProcess && browserProcess.exitCode === null) {
    const exited = once(browserProcess, 'exit');
    browserProcess.kill('SIGKILL');
    await exited;
  }
  // Chromium's helper processes may still be writing for a moment after the browser is gone.
  if (userDataDir) await rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

/** Runs a script against the test's browser and records what the runner reported. */
async function run(script: Script, extra: Partial<RunScriptOptions> = {}) {
  const events: string[] = [];
  const outcomes: StepOutcome[] = [];
  const artifacts = new Map<string, Uint8Array>();
  const result = await runScript({
    devtools: cdpUrl,
    script,
    onStepStart: (index) => {
      events.push(`start ${index}`);
    },
    onStepEnd: (index, outcome) => {
      events.push(`end ${index} ${outcome.status}`);
      outcomes[index] = outcome;
    },
    saveArtifact: async (name, png) => {
      artifacts.set(name, png);
      return `/v1/automation/runs/test/artifacts/${name}`;
    },
    ...extra,
  });
  return { result, events, outcomes, artifacts };
}

describe('runScript', () => {
  it('runs every action in order and collects their output', async () => {
    const { result, events, artifacts } = await run({
      steps: [
        { action: 'goto', url: `${origin}/form` },
        { action: 'type', selector: '#name', text: 'Ada' },
        { action: 'click', selector: 'button.go' },
        { action: 'wait_for', selector: '#late' },
        { action: 'wait_for', ms: 50 },
        { action: 'extract', selector: '#greeting', name: 'greeting' },
        { action: 'extract', selector: '#link', attribute: 'href', name: 'link' },
        { action: 'extract', selector: 'li', name: 'first_item' },
        { action: 'evaluate', expression: 'document.title', name: 'title' },
        { action: 'evaluate', expression: 'window.visited = true' },
        { action: 'screenshot', name: 'form' },
        { action: 'click', selector: '#link' },
        { action: 'extract', selector: 'h1', name: 'heading' },
        {
          action: 'evaluate',
          expression: 'Promise.resolve({ at: new Date(0), gone: undefined })',
          name: 'data',
        },
      ],
    });

    expect(result).toEqual({
      status: 'succeeded',
      error: null,
      output: {
        greeting: 'Hello, Ada!',
        link: '/next',
        first_item: 'first',
        title: 'Hello Ada',
        form: '/v1/automation/runs/test/artifacts/form',
        heading: 'Next page',
        data: { at: '1970-01-01T00:00:00.000Z' },
      },
    });
    expect(events).toEqual(Array.from({ length: 14 }, (_, i) => [`start ${i}`, `end ${i} succeeded`]).flat());
    const png = artifacts.get('form') ?? new Uint8Array();
    expect([...png.subarray(0, 8)]).toEqual(PNG_MAGIC);
    expect(png.length).toBeGreaterThan(1000);
  });

  it('fails the step whose element never appears and skips the rest', async () => {
    const { result, events, outcomes } = await run(
      {
        steps: [
          { action: 'goto', url: `${origin}/form` },
          { action: 'click', selector: '#missing' },
          { action: 'extract', selector: '#greeting', name: 'greeting' },
        ],
      },
      { elementTimeoutMs: 1000 },
    );

    const sentence = "Step 2 (click '#missing') failed: no element matches '#missing' within 1 s.";
    expect(result).toEqual({ status: 'failed', error: sentence, output: {} });
    expect(outcomes).toEqual([
      { status: 'succeeded' },
      { status: 'failed', error: sentence },
      { status: 'skipped' },
    ]);
    expect(events).toEqual(['start 0', 'end 0 succeeded', 'start 1', 'end 1 failed', 'end 2 skipped']);
  });

  it('tells a hidden element from a missing one', async () => {
    const { result } = await run(
      {
        steps: [
          { action: 'goto', url: `${origin}/form` },
          { action: 'type', selector: 'button[hidden]', text: 'x' },
        ],
      },
      { elementTimeoutMs: 500 },
    );

    expect(result.error).toBe(
      "Step 2 (type 'button[hidden]') failed: no visible element matches 'button[hidden]' within 0.5 s.",
    );
  });

  it('fails an evaluate step with the message the page threw', async () => {
    const { result, outcomes } = await run({
      steps: [
        { action: 'goto', url: `${origin}/form` },
        { action: 'evaluate', expression: "(() => { throw new Error('boom') })()", name: 'never' },
      ],
    });

    expect(result).toEqual({
      status: 'failed',
      error: "Step 2 (evaluate '(() => { throw new Error('boom') })()') failed: boom.",
      output: {},
    });
    expect(outcomes[1]?.status).toBe('failed');
  });

  it('fails an evaluate step whose named result JSON cannot hold', async () => {
    const { result } = await run({
      steps: [
        {
          action: 'evaluate',
          expression: '(() => { const loop = {}; loop.self = loop; return loop })()',
          name: 'loop',
        },
      ],
    });

    expect(result.error).toMatch(
      /^Step 1 \(evaluate '.+'\) failed: its result cannot be stored as JSON \(TypeError: Converting circular structure to JSON\)\.$/,
    );
  });

  // Each slow step outlasts the test's own time limit (30 s), so only the run's limit can end it in time.
  // A step waiting for an element says so: the element is the cause, not the limit.
  it.each([
    { slowStep: { action: 'wait_for', ms: 60_000 }, reason: 'the run exceeded its time limit of 1 s' },
    {
      slowStep: { action: 'wait_for', selector: '#never' },
      reason: "no element matches '#never' before the run's time limit",
    },
    {
      slowStep: { action: 'evaluate', expression: 'new Promise(() => {})' },
      reason: 'the run exceeded its time limit of 1 s',
    },
  ] as const)(
    'fails the step running when the time limit passes: $slowStep',
    async ({ slowStep, reason }) => {
      const { result, outcomes } = await run({
        timeout_ms: 1000,
        steps: [
          { action: 'goto', url: `${origin}/next` },
          slowStep,
          { action: 'extract', selector: 'h1', name: 'h' },
        ],
      });

      expect(result.status).toBe('failed');
      expect(result.error).toMatch(/^Step 2 \((wait_for|evaluate) .+\) failed: /);
      expect(result.error?.endsWith(`failed: ${reason}.`)).toBe(true);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['succeeded', 'failed', 'skipped']);
    },
  );

  it("words a refused navigation from its cause, with Chromium's code as the detail", async () => {
    const { result } = await run({ steps: [{ action: 'goto', url: 'http://127.0.0.1:1/' }] });
    expect(result.error).toBe(
      "Step 1 (goto 'http://127.0.0.1:1/') failed: the page did not load: the browser refuses to open that port, " +
        'which is kept for other services than the web (net::ERR_UNSAFE_PORT).',
    );
  });

  it('stops at once when cancelled mid-run (the step waits longer than the test may run)', async () => {
    const controller = new AbortController();
    const { result, outcomes } = await run(
      {
        steps: [
          { action: 'goto', url: `${origin}/next` },
          { action: 'wait_for', ms: 60_000 },
          { action: 'extract', selector: 'h1', name: 'h' },
        ],
      },
      {
        signal: controller.signal,
        onStepStart: (index) => {
          if (index === 1) controller.abort();
        },
      },
    );

    expect(result).toEqual({
      status: 'cancelled',
      error: 'Step 2 (wait_for 60000 ms) was cancelled.',
      output: {},
    });
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['succeeded', 'failed', 'skipped']);
  });

  it('does not start a run that was cancelled before it began', async () => {
    const { result, events } = await run(
      { steps: [{ action: 'goto', url: `${origin}/next` }] },
      { signal: AbortSignal.abort() },
    );

    expect(result).toEqual({
      status: 'cancelled',
      error: `The run was cancelled before step 1 (goto '${origin}/next').`,
      output: {},
    });
    expect(events).toEqual(['end 0 skipped']);
  });

  it('fails with every step skipped when the browser cannot be reached', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));

    const { result, events } = await run(
      {
        steps: [
          { action: 'goto', url: `${origin}/next` },
          { action: 'extract', selector: 'h1', name: 'h' },
        ],
      },
      { devtools: `ws://127.0.0.1:${port}/devtools/browser/gone` },
    );

    expect(result.status).toBe('failed');
    expect(result.error).toMatch(
      /^The browser of this session cannot be reached over DevTools \(.*ECONNREFUSED.*\)\.$/,
    );
    expect(result.error).not.toContain('\n');
    expect(events).toEqual(['end 0 skipped', 'end 1 skipped']);
  });
});

describe('the browser after a run', () => {
  // origin is known only once the page server listens.
  const scriptOnTestServer = (): Script => ({
    steps: [
      { action: 'goto', url: `${origin}/form` },
      { action: 'evaluate', expression: '1 + 1', name: 'two' },
    ],
  });

  it('is still running with its own tabs, and only the run tab is gone', async () => {
    const tabsBefore = await pageTargetIds();
    expect(tabsBefore.length).toBeGreaterThan(0);

    const { result } = await run(scriptOnTestServer());

    expect(result.status).toBe('succeeded');
    expect(browserProcess.exitCode).toBeNull();
    expect(browserProcess.signalCode).toBeNull();
    const version = await devtoolsJson<{ webSocketDebuggerUrl: string }>('/json/version');
    expect(version.webSocketDebuggerUrl).toBe(cdpUrl);
    expect(await pageTargetIds()).toEqual(tabsBefore);
    // A second run connects again to the same browser.
    expect((await run(scriptOnTestServer())).result.output).toEqual({ two: 2 });
  });

  it('keeps a blank tab when the person closed all of theirs, so a headful browser does not quit', async () => {
    for (const id of await pageTargetIds()) await fetch(`${devtoolsOrigin}/json/close/${id}`);
    await expect.poll(pageTargetIds).toEqual([]);

    const { result } = await run(scriptOnTestServer());

    expect(result.status).toBe('succeeded');
    const targets = await devtoolsJson<{ type: string; url: string }[]>('/json/list');
    expect(targets.filter((target) => target.type === 'page').map((target) => target.url)).toEqual([
      'about:blank',
    ]);
  });
});
