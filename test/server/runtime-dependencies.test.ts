import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/config';

/**
 * An install without dev dependencies (npm install --omit=dev) must run the service and its scripts. Installing
 * one for real needs the registry or a warm cache, so this follows the code instead: every module the service
 * loads from server/boot/main.ts, and every package those modules import at run time (type-only imports are
 * erased), must be a dependency; so must the loader the `service` script runs it with.
 */
const manifest = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const RUNTIME_IMPORT =
  /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveLocal(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {}
  }
  throw new Error(`${from} imports ${specifier}, which is not there`);
}

function packagesLoadedFrom(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (seen.has(file) || file.endsWith('.json')) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(RUNTIME_IMPORT)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.')) pending.push(resolveLocal(file, specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        packages.set(name, path.relative(PROJECT_ROOT, file));
      }
    }
  }
  return packages;
}

describe('run-time dependencies', () => {
  it('every package the service loads is in dependencies, not devDependencies', () => {
    const loaded = packagesLoadedFrom(path.join(PROJECT_ROOT, 'server/boot/main.ts'));
    expect(loaded.has('playwright-core')).toBe(true);
    const missing = [...loaded].filter(([name]) => !(name in manifest.dependencies));
    expect(missing.map(([name, file]) => `${name} (imported by ${file})`)).toEqual([]);
  });

  it('the service script runs with a loader that is a dependency', () => {
    expect(manifest.scripts.service).toMatch(/^node --import tsx /);
    expect(manifest.dependencies).toHaveProperty('tsx');
  });
});
