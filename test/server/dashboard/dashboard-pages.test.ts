import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dashboardPages } from '../../../server/dashboard/pages';

/* The pages on a service whose dashboard is not built yet (a fresh clone before any build): answers, and no
   line on stderr that is not a log record. */

afterEach(() => vi.restoreAllMocks());

describe('the dashboard pages before they are built', () => {
  it('say how to build them, answer 404 for an asset, and write nothing to stderr', async () => {
    const stderr = vi.spyOn(console, 'error');
    const pages = dashboardPages('/nonexistent/dashboard');
    const index = await pages.request('/dashboard');
    expect(index.status).toBe(503);
    expect(await index.text()).toMatch(/npm run build:dashboard/);
    expect((await pages.request('/dashboard/assets/index.js')).status).toBe(404);
    expect(stderr).not.toHaveBeenCalled();
  });
});

describe('the dashboard pages once built', () => {
  it('serve their hashed assets as immutable and the page itself fresh', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-dashboard-'));
    try {
      mkdirSync(path.join(dir, 'assets'));
      writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'export {};');
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Dashboard</title>');
      const pages = dashboardPages(dir);
      const asset = await pages.request('/dashboard/assets/index-abc123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await pages.request('/dashboard/assets/missing.js')).status).toBe(404);
      expect((await pages.request('/dashboard')).headers.get('cache-control')).toBe('no-cache');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
