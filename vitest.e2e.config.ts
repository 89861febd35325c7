import { defineConfig } from 'vitest/config';

/**
 * The end-to-end tests: the built extension in real Chromium against the real service. Two files at a time:
 * each starts its own service, sites and browser on ports of their own (0) and its own temp dirs, so they share
 * nothing but the built extension, which is built once, before them all, and only read.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    setupFiles: ['test/e2e/support/failure-report.ts'],
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
