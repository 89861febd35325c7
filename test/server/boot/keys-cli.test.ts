import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../server/core/api-keys';
import { PROJECT_ROOT } from '../../../server/core/config';
import { openDatabase } from '../../../server/db/open';
import { createDataDir, requester, runCli, type ServiceHandle, startService } from '../../support/harness';

const KEY = /^pp_live_[0-9A-Za-z]{32}$/;
let dataDir: string;
let service: ServiceHandle | undefined;

beforeAll(async () => {
  dataDir = await createDataDir();
});
afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const keys = (...args: string[]) => runCli(['keys', ...args], { dataDir });

async function listed() {
  const result = await keys('list', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as {
    prefix: string;
    name: string;
    plan: string;
    revoked_at: string | null;
  }[];
}

describe('keys on a stopped service', () => {
  let stoppedKey: string;

  it('creates a key and prints only the key on stdout', async () => {
    const result = await keys('create', '--plan', 'premium', '--name', 'Operator');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^pp_live_[0-9A-Za-z]{32}\n$/);
    stoppedKey = result.stdout.trim();
    expect(result.stderr).toMatch(/premium account "Operator".*only time the key is shown/s);
  });

  it('stores the key hashed: no column holds it', async () => {
    const db = await openDatabase({ dataDir });
    try {
      const rows = await db.query<Record<string, unknown>>('select * from api_keys');
      expect(rows.map((row) => row.hash)).toContain(hashApiKey(stoppedKey));
      expect(JSON.stringify(rows)).not.toContain(stoppedKey);
      expect(JSON.stringify(rows)).not.toContain(stoppedKey.slice(-20));
    } finally {
      await db.close();
    }
  });

  it('lists keys by prefix, never the key', async () => {
    const result = await keys('list');
    expect(result.stdout).toMatch(/^PREFIX\s+NAME\s+PLAN\s+CREATED\s+REVOKED\n/);
    expect(result.stdout).toContain(stoppedKey.slice(0, 12));
    expect(result.stdout).not.toContain(stoppedKey);
    expect(await listed()).toEqual([
      expect.objectContaining({
        prefix: stoppedKey.slice(0, 12),
        name: 'Operator',
        plan: 'premium',
        revoked_at: null,
      }),
    ]);
  });

  it('revokes by prefix, and says so when no key has it', async () => {
    const doomed = (await keys('create', '--plan', 'free')).stdout.trim();
    expect((await keys('revoke', doomed.slice(0, 12))).code).toBe(0);
    const revoked = (await listed()).find((entry) => entry.prefix === doomed.slice(0, 12));
    expect(revoked?.revoked_at).toEqual(expect.any(String));
    const missing = await keys('revoke', 'pp_live_zzzz');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no key with the prefix/);
  });

  it('explains its usage', async () => {
    const noPlan = await keys('create');
    expect(noPlan.code).toBe(2);
    expect(noPlan.stderr).toMatch(/--plan free\|premium\|enterprise/);
    expect((await keys('create', '--plan', 'gold')).code).toBe(2);
    expect((await keys('rotate')).code).toBe(2);
    const help = await keys('help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/keys create/);
  });

  it('works through npm run --silent with only the key on stdout', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'service', '--', 'keys', 'create', '--plan', 'free'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk;
      });
      child.once('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(KEY);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  describe('and then running', () => {
    beforeAll(async () => {
      service = await startService({ dataDir });
    });

    it('accepts a key made while it was stopped', async () => {
      const operator = (await listed()).find((entry) => entry.name === 'Operator');
      expect(operator).toBeDefined();
      const response = await requester(service?.baseUrl ?? '', stoppedKey)('GET', '/v1/account');
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ plan: 'premium', name: 'Operator' });
    });

    it('creates, lists and revokes through the running service', async () => {
      const baseUrl = service?.baseUrl ?? '';
      const created = await keys('create', '--plan', 'enterprise', '--name', 'Live');
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(KEY);
      expect((await requester(baseUrl, key)('GET', '/v1/account')).status).toBe(200);
      expect((await listed()).map((entry) => entry.name)).toContain('Live');
      expect((await keys('revoke', key.slice(0, 12))).code).toBe(0);
      expect((await requester(baseUrl, key)('GET', '/v1/account')).status).toBe(401);
    });

    it('refuses a second service on the same data dir with a clear message', async () => {
      await expect(startService({ dataDir })).rejects.toThrow(/in use by a running service \(pid \d+\)/);
    });
  });
});
