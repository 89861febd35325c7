import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { apiError, createDataDir, runCli, type ServiceHandle, startService } from '../../support/harness';

/* `npm run service` as the README describes it: its flags, `--help`, and a CHROME_PATH that cannot run. */

const started: ServiceHandle[] = [];
afterAll(() => Promise.all(started.map((service) => service.close())));

describe('npm run service', () => {
  const scratch = createDataDir();
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));
  const run = async (...args: string[]) => runCli(args, { dataDir: await scratch });

  it('lists its flags and variables with --help', async () => {
    const result = await run('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Usage: npm run service [-- --port N --host H --data-dir DIR --database-url URL]',
    );
    expect(result.stdout).toContain(
      'Environment: PORT (8787), HOST (127.0.0.1), DATA_DIR (.data), DATABASE_URL, CHROME_PATH, HEADLESS, LOG_LEVEL,\nSIGNUP (open; closed turns off sign-up on the dashboard at /dashboard).',
    );
  });

  it.each([
    [['--bogus'], 2, "Unknown option '--bogus'"],
    [['serve'], 2, 'Unknown command: serve'],
    [['--port', 'http'], 1, 'PORT must be 0 to 65535, not "http"'],
  ])('answers %o with exit code %i and a sentence', async (args, code, sentence) => {
    const result = await run(...args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(sentence);
  });

  it('takes --port, --host and --data-dir over the environment', async () => {
    const dataDir = await createDataDir();
    const service = await startService({
      dataDir,
      env: { DATA_DIR: path.join(dataDir, 'not-this-one'), PORT: '1' },
      args: ['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir],
    });
    started.push(service);
    expect(service.port).toBeGreaterThan(1);
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'not-this-one'))).toBe(false);
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
  });

  it('answers 503 browser_unavailable, naming the CHROME_PATH setting but not its path, when it cannot run', async () => {
    const service = await startService({ env: { CHROME_PATH: '/nonexistent/chromium' } });
    started.push(service);
    const api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('free'), fetch });
    const profile = await api.createProfile({ name: 'No browser' });
    const error = await apiError(api.startSession({ profile_id: profile.id }));
    expect(error).toMatchObject({ status: 503, code: 'browser_unavailable' });
    expect(error.message).toContain("The service's CHROME_PATH setting does not name an executable file.");
    expect(error.message).not.toContain('/nonexistent');
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'idle', session_id: null });
  });
});
