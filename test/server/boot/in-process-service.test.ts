import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { currentLockHolder } from '../../../server/core/lock';
import { createDataDir } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

// The tests' in-process service is the real one: it listens, logs, takes keys over its admin socket and lets go of
// its data dir when closed.
describe('the in-process service of the tests', () => {
  it('serves HTTP on a loopback port, logs JSON lines, and takes keys from the command line while it runs', async () => {
    const service = await startServiceInProcess();
    try {
      expect(service.baseUrl).toBe(`http://127.0.0.1:${service.port}`);
      expect(currentLockHolder(service.dataDir)).toMatchObject({ pid: process.pid, role: 'service' });
      const listening = service.logs
        .map((line) => JSON.parse(line))
        .find((record) => record.msg === 'listening');
      expect(listening).toMatchObject({ level: 'info', port: service.port, data_dir: service.dataDir });

      const key = await service.createKey('premium', 'in process');
      expect(service.logs.join('\n')).not.toContain(key);
      const account = await createClient({ baseUrl: service.baseUrl, apiKey: key, fetch }).getAccount();
      expect(account.plan).toBe('premium');
      const listed = await service.cli(['keys', 'list', '--json']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ name: 'in process', plan: 'premium' }),
      ]);
      await expect(service.cli(['--help'])).rejects.toThrow(/only keys commands run in this process/);
    } finally {
      await service.close();
    }
    expect(currentLockHolder(service.dataDir)).toBeNull();
    expect(existsSync(service.dataDir)).toBe(false);
    await expect(fetch(`${service.baseUrl}/healthz`)).rejects.toThrow();
  });

  it('starts again on the data dir it was given, with what it had', async () => {
    const dataDir = await createDataDir();
    const first = await startServiceInProcess({ dataDir });
    const key = await first.createKey('free');
    const second = await startServiceInProcess({ dataDir }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toMatch(/in use by a running service/);
    await first.close();
    expect(existsSync(dataDir)).toBe(true);
    const again = await startServiceInProcess({ dataDir });
    try {
      const response = await fetch(`${again.baseUrl}/v1/account`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
