import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The dashboard's pages, built into .output/dashboard, which the service serves at /dashboard. No inline
 * script (the pages' Content-Security-Policy forbids it), so no module-preload polyfill either.
 */
export default defineConfig({
  root: here,
  base: '/dashboard/',
  plugins: [preact()],
  build: {
    outDir: path.join(here, '..', '.output', 'dashboard'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rollupOptions: {
      // zod's sources hold comments Rollup cannot place; it drops them, and says so at length.
      onwarn: (warning, warn) => warning.code === 'INVALID_ANNOTATION' || warn(warning),
    },
  },
});
