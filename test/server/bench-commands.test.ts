import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/config';
import { postgresForTests } from '../support/postgres-server';

/* `npm run bench`, `bench:click`, `bench:cookies` and `bench:cluster` in a short form (one small size, one round,
 * one session), so that they cannot rot. The four run at once: each spends most of its time starting services,
 * browsers and databases, and only its figures' lines are checked, not their values. */

function bench(
  env: Record<string, string>,
  script = 'bench',
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

describe.concurrent('npm run bench', { timeout: 420_000 }, () => {
  it('prints each figure beside its baseline, with no failed request', async () => {
    const { code, stdout } = await bench({
      SIZES: '20',
      ROUNDS: '1',
      DURATION_S: '0.5',
      WARMUP_S: '0',
      CONNECTIONS: '2',
      SESSION_ROUNDS: '1',
      LIVE_CHANGES: '3',
      LIVE_CPU_MS: '500',
      LIVE_LOAD_S: '1',
      TRAFFIC_ROUNDS: '1',
      TRAFFIC_BROWSERS: '2',
      TRAFFIC_SCRIPTS: '20',
      TRAFFIC_MB: '4',
      BATCH_RUNS: '4',
      IDLE_S: '0.5',
      FLOODS: 'sign-in',
      FLOOD_S: '0.5',
      FLOOD_PROFILES: '20',
      DATABASES: 'pglite',
    });
    expect(code).toBe(0);
    for (const scenario of ['list 50', 'get by id', 'search q=', 'create']) {
      expect(stdout).toContain(`${scenario}, 20 profiles`);
    }
    expect(stdout).toMatch(/^bare node:http +\d+/m);
    expect(stdout).toMatch(/^service, PGlite +\d+ .* ×\d+\.\d/m);
    expect(stdout).not.toContain('failed');
    for (const line of ['session start', 'session stop', 'three-step run', 'list of sessions, 1 running']) {
      expect(stdout).toMatch(new RegExp(`^${line} +\\d+ ms .* ×\\d+\\.\\d\\d$`, 'm'));
    }
    for (const viewers of ['1 viewer ', '4 viewers'])
      expect(stdout).toMatch(new RegExp(`^${viewers}  change → screen  median +\\d+ ms   p95 +\\d+ ms`, 'm'));
    expect(stdout).toMatch(/^4 viewers {2}service CPU .* → -?\d+\.\d% per viewer$/m);
    expect(stdout).toMatch(/^GET \/v1\/profiles with 4 viewers: +\d+ req\/s/m);
    expect(stdout).toMatch(/^batch wall time .* ×\d+\.\d\d$/m);
    expect(stdout).toMatch(/^sign-in-link guesses ×8 +\d+\.\d +\d+\.\d +×\d+\.\d\d/m);
    for (const line of [
      'page of 20 scripts',
      'one 4 MiB download',
      '2 downloading at once',
      'list of 50, p95',
      'one 4 MiB download, HTTPS',
      '2 downloading at once, HTTPS',
    ]) {
      expect(stdout).toMatch(new RegExp(`^${line}.* ×\\d+\\.\\d\\d \\(`, 'm'));
    }
  });
});

describe.concurrent('npm run bench:click', { timeout: 420_000 }, () => {
  it('prints the median and p90 of MCP browser_click end to end', async () => {
    const { code, stdout } = await bench({ CLICKS: '2', TURN: '1' }, 'bench:click');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}this checkout +median \d+\.\d ms {2}p90 \d+\.\d ms$/m);
  });
});

describe.concurrent('npm run bench:cookies', { timeout: 420_000 }, () => {
  it('prints each import beside a bare session start and stop, and where its time goes', async () => {
    const { code, stdout } = await bench(
      { COOKIE_ROUNDS: '1', COOKIES: '3', PROFILE_MB: '1' },
      'bench:cookies',
    );
    expect(code).toBe(0);
    const ratio = ' +\\d+ ms {3}×\\d+\\.\\d\\d$';
    for (const saved of ['', ', saved']) {
      for (const request of ['PUT', 'GET'])
        expect(stdout).toMatch(
          new RegExp(`^${request}${saved} +\\d+ ms {3}session start \\+ stop${saved}${ratio}`, 'm'),
        );
      expect(stdout).toMatch(
        new RegExp(`^session start \\+ stop${saved} +\\d+ ms {3}raw start \\+ stop${ratio}`, 'm'),
      );
    }
    for (const part of ['browser launch', 'cookies written', 'browser stop', 'folder packed'])
      expect(stdout).toMatch(
        new RegExp(`^${part}, cookies only +\\d+ ms {3}${part}, as a session${ratio}`, 'm'),
      );
    expect(stdout).toMatch(new RegExp(`^browser launch, as a session +\\d+ ms {3}raw start${ratio}`, 'm'));
    expect(stdout).toMatch(/^the rest of a PUT: database, identity, HTTP +-?\d+ ms$/m);
  });
});

describe.skipIf(!postgresForTests()).concurrent('npm run bench:cluster', { timeout: 420_000 }, () => {
  it('prints statements per request and per session, a browser’s memory, and requests per process', async () => {
    const { code, stdout } = await bench(
      { REQUESTS: '5', SESSIONS: '1', DURATION_S: '1', CONNECTIONS: '2' },
      'bench:cluster',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}enterprise +list \d+\.\d\d, get \d+\.\d\d, create \d+\.\d\d$/m);
    expect(stdout).toMatch(/^ {2}premium +list \d+\.\d\d, get \d+\.\d\d, create \d+\.\d\d$/m);
    expect(stdout).toMatch(/^statements per session start \d+\.\d, per stop \d+\.\d \(1 sessions\)$/m);
    expect(stdout).toMatch(/about \d+\.\d browsers per GiB$/m);
    expect(stdout).toMatch(/one process \d+ req\/s; two processes together \d+ req\/s \(×\d+\.\d\d\)/);
  });
});
