import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';

export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Many tests start a service or a browser themselves: under load (2 cores, other runs) that alone took over 30 s.
    testTimeout: 120_000,
    // Services and browsers start in hooks; on a loaded machine (a shared CI runner) that took over 60 s.
    hookTimeout: 180_000,
    restoreMocks: true,
    // Forks, not threads: a file's service runs in its worker (test/support/in-process-service.ts), which sets
    // the umask as main.ts does (refused in a thread) and holds a PGlite WASM heap and Chromium children that
    // go with the process. Two at a time, where vitest's default is one fewer than the cores (one here): most
    // of a service file's time is spent waiting on browsers, sockets and timers, not on the CPU.
    pool: 'forks',
    maxWorkers: 2,
  },
});
