import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { createDataDir, requester, type ServiceHandle, startService } from '../../support/harness';

let dataDir: string;
let service: ServiceHandle | undefined;

beforeAll(async () => {
  dataDir = await createDataDir();
});
afterAll(async () => {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('durability', { timeout: 120_000 }, () => {
  it('keeps every answered write after kill -9, and restarts over the stale lock', async () => {
    service = await startService({ dataDir });
    const key = await service.createKey('enterprise');
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const created: string[] = [];
    for (let i = 0; i < 20; i++) created.push((await client.createProfile({ name: `durable ${i}` })).id);
    const proxy = await client.createProxy({
      name: 'kept',
      scheme: 'http',
      host: 'h',
      port: 1,
      password: 'p',
    });
    await client.updateProxy(proxy.id, { name: 'updated', scheme: 'http', host: 'h', port: 2 });
    await client.deleteProfile(created.pop() ?? '');
    await service.kill();

    service = await startService({ dataDir });
    const after = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const ids = (await after.listProfiles({ limit: 100 })).data.map((profile) => profile.id);
    expect(ids).toEqual(created.toReversed());
    expect(await after.getProxy(proxy.id)).toMatchObject({ name: 'updated', port: 2, has_password: true });
  });

  it('shuts down gracefully on SIGTERM with exit code 0', async () => {
    const running = service ?? (await startService({ dataDir }));
    expect((await requester(running.baseUrl)('GET', '/healthz')).status).toBe(200);
    expect(await running.stop()).toBe(0);
    expect(running.logs.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    service = undefined;
  });
});
