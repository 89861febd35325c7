import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { STDERR_LOG_FILE } from '../browser/startup-failure';
import { archivedLength, EMPTY_ARCHIVE_LENGTH } from './profile-archive';

/** In the profile's folder: the stored version the folder holds (absent: none). */
export const HELD_VERSION_FILE = 'profile-state-version';

/** Parts saved only while the archive stays within its limit, the largest left out first. */
const OPTIONAL_FOLDERS = new Set(['IndexedDB', 'File System', 'Service Worker', 'blob_storage']);
/** Rebuilt by the browser or of this machine alone: crash reports, downloads, a running browser's locks and logs. */
const LEFT_OUT_FOLDERS = new Set(['Crash Reports', 'Crashpad', 'Downloads', 'BrowserMetrics']);
const LEFT_OUT_FILES = new Set(['DevToolsActivePort', STDERR_LOG_FILE, HELD_VERSION_FILE]);

function isLeftOutFolder(name: string): boolean {
  // Every cache Chromium keeps says so in its name: Cache, Code Cache, GPUCache, DawnWebGPUCache, the Service
  // Worker's CacheStorage and ScriptCache, Shared Dictionary's cache…
  return /cache/i.test(name) || LEFT_OUT_FOLDERS.has(name);
}

function isLeftOutFile(name: string): boolean {
  return name.startsWith('Singleton') || name.startsWith('BrowserMetrics') || LEFT_OUT_FILES.has(name);
}

export interface ProfileFile {
  path: string;
  size: number;
  /** The optional folder (IndexedDB…) the file is in, or null. */
  optionalPart: string | null;
}

/** The regular files under `root` worth saving; symbolic links are neither followed nor saved. */
export async function profileFiles(root: string): Promise<ProfileFile[]> {
  const found: ProfileFile[] = [];
  const folders: { path: string; optionalPart: string | null }[] = [{ path: '', optionalPart: null }];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    for (const entry of await readdir(path.join(root, folder.path), { withFileTypes: true })) {
      const entryPath = folder.path === '' ? entry.name : `${folder.path}/${entry.name}`;
      if (entry.isDirectory() && !isLeftOutFolder(entry.name)) {
        const optionalPart = folder.optionalPart ?? (OPTIONAL_FOLDERS.has(entry.name) ? entryPath : null);
        folders.push({ path: entryPath, optionalPart });
      } else if (entry.isFile() && !isLeftOutFile(entry.name)) {
        const { size } = await lstat(path.join(root, entryPath));
        found.push({ path: entryPath, size, optionalPart: folder.optionalPart });
      }
    }
  }
  return found;
}

/** The files that fit in `maxBytes` once packed, leaving out the largest optional parts first; null if none do. */
export function withinLimit(
  files: ProfileFile[],
  maxBytes: number,
): { files: ProfileFile[]; leftOut: string[] } | null {
  const lengthOf = (some: ProfileFile[]) =>
    some.reduce((sum, file) => sum + archivedLength(file.path, file.size), 0);
  let total = EMPTY_ARCHIVE_LENGTH + lengthOf(files);
  const parts = new Map<string, ProfileFile[]>();
  for (const file of files) {
    if (file.optionalPart === null) continue;
    const part = parts.get(file.optionalPart) ?? [];
    part.push(file);
    parts.set(file.optionalPart, part);
  }
  const largestFirst = [...parts].sort(([, a], [, b]) => lengthOf(b) - lengthOf(a));
  const leftOut: string[] = [];
  for (const [part, partFiles] of largestFirst) {
    if (total <= maxBytes) break;
    total -= lengthOf(partFiles);
    leftOut.push(part);
  }
  if (total > maxBytes) return null;
  const kept = files.filter((file) => file.optionalPart === null || !leftOut.includes(file.optionalPart));
  return { files: kept, leftOut };
}
