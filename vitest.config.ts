import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing';

export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    // Forks, not threads: a file's service runs in its worker (test/support/in-process-service.ts), which sets
    // the umask as main.ts does (refused in a thread) and holds a PGlite WASM heap and Chromium children that
    // go with the process. Two at a time, where vitest's default is one fewer than the cores (one here): most
    // of a service file's time is spent waiting on browsers, sockets and timers, not on the CPU.
    pool: 'forks',
    maxWorkers: 2,
  },
});
