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
  },
});
