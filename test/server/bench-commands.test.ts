import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/config';

/* `npm run bench` in a short form (one small size, one round, one session), so that it cannot rot. */

function bench(env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'bench'], {
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

describe('npm run bench', { timeout: 240_000 }, () => {
  it('prints each figure beside its baseline, with no failed request', async () => {
    const { code, stdout } = await bench({
      SIZES: '20',
      ROUNDS: '1',
      DURATION_S: '1',
      CONNECTIONS: '2',
      SESSION_ROUNDS: '1',
    });
    expect(code).toBe(0);
    for (const scenario of ['list 50', 'get by id', 'search q=', 'create']) {
      expect(stdout).toContain(`${scenario}, 20 profiles`);
    }
    expect(stdout).toMatch(/^bare node:http +\d+/m);
    expect(stdout).toMatch(/^service, PGlite +\d+ .* ×\d+\.\d/m);
    expect(stdout).not.toContain('failed');
    for (const line of ['session start', 'session stop', 'three-step run']) {
      expect(stdout).toMatch(new RegExp(`^${line} +\\d+ ms .* ×\\d+\\.\\d\\d$`, 'm'));
    }
  });
});
