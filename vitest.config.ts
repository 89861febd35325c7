import { readdirSync, readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';

const TESTS = ['test/**/*.test.{ts,tsx}'];
const NOT_HERE = ['test/e2e/**', 'node_modules/**'];

/**
 * The service's test files, which run one after another in a worker process (below), but for those that replace
 * a module with vi.mock: a module another file of the same worker imported first is already loaded.
 */
const SERVICE_TESTS = readdirSync('test/server', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `test/server/${file}`);
const SHARED = SERVICE_TESTS.filter((file) => !/\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    // Many tests start a service or a browser themselves: under load (2 cores, other runs) that alone took over 30 s.
    testTimeout: 120_000,
    // Services and browsers start in hooks; on a loaded machine (a shared CI runner) that took over 60 s.
    hookTimeout: 180_000,
    restoreMocks: true,
    unstubGlobals: true,
    unstubEnvs: true,
    // Forks, not threads: a file's service runs in its worker (test/support/in-process-service.ts), which sets
    // the umask as main.ts does (refused in a thread) and holds a PGlite WASM heap and Chromium children that
    // go with the process. Two at a time, where vitest's default is one fewer than the cores (one here): most
    // of a service file's time is spent waiting on browsers, sockets and timers, not on the CPU.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // One process runs file after file: each file's imports (the service, Playwright, PGlite) are loaded
        // once per worker rather than once per file, which was a fifth of the suite's time (162 of 708 s).
        // Every service file closes what it starts, and none changes process-wide state but the umask every
        // service sets alike. The extension's tests stay a process each: they stand in for the browser's globals.
        test: { name: 'shared', include: SHARED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: TESTS, exclude: [...NOT_HERE, ...SHARED] } },
    ],
  },
});
