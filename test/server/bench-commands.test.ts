import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/config';

/* The README's bench commands, run in a short form (a few requests, one session) so that they cannot rot. */

function bench(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('test/bench', file)], {
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

describe('the bench commands', { timeout: 120_000 }, () => {
  it('profiles-throughput measures GET /v1/profiles without a failure', async () => {
    const { code, stdout } = await bench('profiles-throughput.ts', {
      CONCURRENCY: '2',
      DURATION_S: '1',
      PROFILES: '3',
    });
    expect(code).toBe(0);
    const figures = JSON.parse(stdout);
    expect(figures).toMatchObject({ concurrency: 2, profiles_per_page: 3, failures: 0 });
    expect(figures.requests).toBeGreaterThan(0);
  });

  it('session-start measures a session’s start, connect and stop', async () => {
    const { code, stdout } = await bench('session-start.ts', { SESSIONS: '1' });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      sessions: 1,
      start_to_cdp_ready_ms: { median: expect.any(Number) },
      connect_over_cdp_after_ms: { median: expect.any(Number) },
      stop_ms: { median: expect.any(Number) },
    });
  });
});
