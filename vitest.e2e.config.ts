import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests: the built extension in real Chromium against the real service. One file at a time
 * (each starts its own service and browser, and the machine has few cores); the extension is built once,
 * before them all.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
