import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/config';

/**
 * The service's floors, lowest first (server/README.md says why): a module imports from its own floor or below,
 * never above. biome.json holds the same rules for editors; the last test checks the two agree.
 */
const FLOORS: string[][] = [
  ['core'],
  ['db'],
  ['store'],
  [
    'accounts',
    'admin',
    'audit',
    'automation',
    'browser',
    'cluster',
    'cookies',
    'downloads',
    'events',
    'handoff',
    'identity',
    'live',
    'metrics',
    'network',
    'pages',
    'profiles',
    'proxies',
    'queue',
    'sessions',
    'webhooks',
  ],
  ['http'],
  ['routes', 'dashboard', 'mcp'],
  ['boot'],
];
/** Where a repeating timer may start: the jobs list; the embedded database's WAL flush, which lives as long as
 * the database connection itself (opened before the jobs start, closed after they stop); and a live viewer's tab
 * list, which lives as long as that viewer's socket. */
const TIMER_OWNERS = ['server/boot/jobs.ts', 'server/db/pglite.ts', 'server/live/screencast-viewer.ts'];
const ALLOWED_AT_TOP = ['README.md'];
/** A file longer than this does more than one job: split it by job (server/README.md). */
const MAX_SOURCE_LINES = 300;
/** The folders of source code, the service's and the extension's. */
const SOURCE_ROOTS = ['server', 'lib', 'entrypoints', 'components', 'dashboard', 'scripts'];

const SERVER = path.join(PROJECT_ROOT, 'server');
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g;

/** The TypeScript files below `dir` (`ending`: other source files too, such as the live view's JavaScript). */
function sourceFiles(dir: string, ending = /\.tsx?$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, ending);
    return ending.test(entry.name) ? [full] : [];
  });
}

const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));
const folderOf = (file: string) => path.relative(SERVER, file).split(path.sep)[0] ?? '';
const relative = (file: string) => path.relative(PROJECT_ROOT, file);

/** The folders of server/ each file's folder imports from, itself left out. */
function folderImports(files: string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files)
    for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = path.resolve(path.dirname(file), specifier);
      const [from, to] = [folderOf(file), folderOf(target)];
      if (!target.startsWith(SERVER + path.sep) || from === to) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  return graph;
}

/** The first circle of the graph met, as its folders ("a -> b -> a"), or null when there is none. */
function firstCircle(graph: Map<string, Set<string>>): string | null {
  const done = new Set<string>();
  const walk = (folder: string, trail: string[]): string | null => {
    if (trail.includes(folder)) return [...trail.slice(trail.indexOf(folder)), folder].join(' -> ');
    if (done.has(folder)) return null;
    for (const next of graph.get(folder) ?? []) {
      const circle = walk(next, [...trail, folder]);
      if (circle) return circle;
    }
    done.add(folder);
    return null;
  };
  for (const folder of graph.keys()) {
    const circle = walk(folder, []);
    if (circle) return circle;
  }
  return null;
}

/** The floor rules as biome.json states them: for each floor below the top, its folders may not import above. */
function biomeFloorRules(): { includes: string[]; denied: string[] }[] {
  return FLOORS.slice(0, -1).map((floor, index) => ({
    includes: floor.map((folder) => `server/${folder}/**`),
    denied: FLOORS.slice(index + 1).flatMap((above) =>
      above.flatMap((folder) => [`../${folder}`, `../${folder}/**`]),
    ),
  }));
}

/** The files of server/ each file imports (types too), for circles between files. */
function fileImports(files: string[]): Map<string, Set<string>> {
  const resolve = (from: string, specifier: string) => {
    const target = path.resolve(path.dirname(from), specifier);
    return [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')].find((f) => files.includes(f));
  };
  return new Map(
    files.map((file) => [
      file,
      new Set(
        [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, specifier = '']) => {
          const target = resolve(file, specifier);
          return target ? [target] : [];
        }),
      ),
    ]),
  );
}

const PAGE_TOOLS_DIR = path.join(SERVER, 'pages', 'tools');
/** What pages/tools/ holds beside the tools: the list and the shape of a tool. */
const NOT_TOOLS = ['index.ts', 'page-tool.ts'];

describe('server boundaries', () => {
  const files = sourceFiles(SERVER);

  it('leaves nothing loose at the top of server/ but its index', () => {
    const loose = readdirSync(SERVER, { withFileTypes: true })
      .filter((entry) => entry.isFile() && !ALLOWED_AT_TOP.includes(entry.name))
      .map((entry) => entry.name);
    expect(loose).toEqual([]);
  });

  it('puts every folder of server/ on a floor', () => {
    const folders = readdirSync(SERVER, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => floorOf(name) === -1)).toEqual([]);
  });

  it('never imports up a floor (a domain module never imports server/http)', () => {
    const upward = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, specifier = '']) => {
        const target = path.resolve(path.dirname(file), specifier);
        if (!target.startsWith(SERVER + path.sep)) return [];
        return floorOf(folderOf(target)) > floorOf(folderOf(file))
          ? [`${relative(file)} imports ${relative(target)}`]
          : [];
      }),
    );
    expect(upward).toEqual([]);
  });

  it('keeps routes/ and mcp/ two doors to one domain: neither imports the other', () => {
    const doors = ['routes', 'mcp'];
    const graph = folderImports(files);
    const sideways = doors.flatMap((door) =>
      [...(graph.get(door) ?? [])].filter((to) => doors.includes(to)).map((to) => `${door} -> ${to}`),
    );
    expect(sideways).toEqual([]);
  });

  it('keeps runs on the page layer: pages/ imports nothing from automation/', () => {
    const pages = files.filter((file) => folderOf(file) === 'pages');
    const intoRuns = pages.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, specifier = '']) => {
        const target = path.resolve(path.dirname(file), specifier);
        return folderOf(target) === 'automation' ? [`${relative(file)} imports ${relative(target)}`] : [];
      }),
    );
    expect(pages.length).toBeGreaterThan(0);
    expect(intoRuns).toEqual([]);
  });

  it('imports in no circle between folders (a folder-level graph)', () => {
    expect(firstCircle(folderImports(files))).toBeNull();
  });

  it('imports in no circle between the files of server/ (types too)', () => {
    const circle = firstCircle(fileImports(files));
    expect(circle?.split(' -> ').map(relative).join(' -> ')).toBeUndefined();
  });

  it('keeps each page tool in one file of pages/tools/, named once in its list', () => {
    const toolFiles = readdirSync(PAGE_TOOLS_DIR).filter((name) => !NOT_TOOLS.includes(name));
    const list = readFileSync(path.join(PAGE_TOOLS_DIR, 'index.ts'), 'utf8');
    for (const name of toolFiles) {
      const text = readFileSync(path.join(PAGE_TOOLS_DIR, name), 'utf8');
      expect(text.match(/= definePageTool\(/g)?.length, name).toBe(1);
      expect(list, name).toContain(`from './${name.replace(/\.ts$/, '')}'`);
    }
    // No switch over the tools' names anywhere else: a tool's behaviour is its file's.
    const switches = files.filter((file) => /case 'browser_/.test(readFileSync(file, 'utf8'))).map(relative);
    expect(switches).toEqual([]);
    const libApi = sourceFiles(path.join(PROJECT_ROOT, 'lib', 'api'));
    expect(libApi.filter((file) => readFileSync(file, 'utf8').includes('agent_tab')).map(relative)).toEqual(
      [],
    );
  });

  it('starts repeating timers only in the jobs list', () => {
    const timers = files
      .filter((file) => !TIMER_OWNERS.includes(relative(file)))
      .filter((file) => /\bsetInterval\s*\(/.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(timers).toEqual([]);
  });

  it(`keeps every source file, TypeScript or JavaScript, within ${MAX_SOURCE_LINES} lines`, () => {
    const long = SOURCE_ROOTS.flatMap((root) => sourceFiles(path.join(PROJECT_ROOT, root), /\.[cm]?[jt]sx?$/))
      .map((file) => ({ file: relative(file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_SOURCE_LINES);
    expect(long).toEqual([]);
  });

  it('biome.json states the same floors and timer rule', () => {
    const biome = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'biome.json'), 'utf8')) as {
      overrides: {
        includes: string[];
        linter?: { rules?: Record<string, Record<string, { options?: Record<string, unknown> }>> };
      }[];
    };
    const stated = biome.overrides.flatMap((override) => {
      const patterns = override.linter?.rules?.style?.noRestrictedImports?.options?.patterns as
        | { group: string[]; message: string }[]
        | undefined;
      const floor = patterns?.find((pattern) => pattern.message.startsWith('Up a floor'));
      return floor ? [{ includes: override.includes, denied: floor.group }] : [];
    });
    expect(stated).toEqual(biomeFloorRules());
    const timerRule = biome.overrides.find(
      (override) => override.linter?.rules?.style?.noRestrictedGlobals?.options?.deniedGlobals,
    );
    expect(timerRule?.includes).toEqual(['server/**', ...TIMER_OWNERS.map((file) => `!${file}`)]);
  });
});
