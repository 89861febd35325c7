import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionDownload } from '../../lib/api/schemas/downloads';
import { profileDataDir } from '../core/data-dir';

/**
 * A profile's downloads: the bytes Chromium saved under the download's id (it never uses the page's name on
 * disk), and beside them `<id>.json`, what the service recorded of it. Both live in the profile's folder,
 * which the profile's deletion removes; the folder is left out of the saved profile state.
 */
export interface DownloadRecord extends SessionDownload {
  session_id: string;
}

/** The id Chromium gives a download (a UUID): the only shape a file id may have, so it never names a path. */
const DOWNLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECORD_SUFFIX = '.json';
/** A record is a few hundred bytes; a larger one was not written by the service. */
const MAX_RECORD_BYTES = 4096;
const MAX_NAME_CHARS = 200;

export function isDownloadId(text: string): boolean {
  return DOWNLOAD_ID.test(text);
}

export function downloadsDir(dataDir: string, profileId: string): string {
  return path.join(profileDataDir(dataDir, profileId), 'Downloads');
}

/** Where a download's bytes are, for an id `isDownloadId` accepted. */
export function downloadFile(dir: string, id: string): string {
  if (!isDownloadId(id)) throw new Error('not a download id');
  return path.join(dir, id);
}

/**
 * A page's suggested file name as the service shows and serves it: its last path part, without control or
 * direction-changing characters, at most 200 characters, never empty, `.` or `..`.
 */
export function safeFileName(suggested: string): string {
  const lastPart = suggested.split(/[/\\]/).pop() ?? '';
  const clean = lastPart
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out.
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  const cut = Array.from(clean).slice(0, MAX_NAME_CHARS).join('');
  return cut === '' || /^\.+$/.test(cut) ? 'download' : cut;
}

const TYPES: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  zip: 'application/zip',
  xml: 'application/xml',
  html: 'text/html',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The type a download's name says; bytes are always served as an attachment that is not sniffed. */
export function typeOfName(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return TYPES[extension] ?? 'application/octet-stream';
}

/** Writes a download's record whole (a temporary file renamed over the old one). */
export async function writeRecord(dir: string, record: DownloadRecord): Promise<void> {
  const target = downloadFile(dir, record.id) + RECORD_SUFFIX;
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Every download recorded in the folder, oldest first; none when the folder does not exist (yet). */
export async function readRecords(dir: string): Promise<DownloadRecord[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: DownloadRecord[] = [];
  for (const name of names) {
    const id = name.slice(0, -RECORD_SUFFIX.length);
    if (!name.endsWith(RECORD_SUFFIX) || !isDownloadId(id)) continue;
    const record = await readRecord(dir, id);
    if (record) records.push(record);
  }
  return records.sort((a, b) => a.started_at.localeCompare(b.started_at));
}

export async function readRecord(dir: string, id: string): Promise<DownloadRecord | null> {
  try {
    const text = await readFile(downloadFile(dir, id) + RECORD_SUFFIX, 'utf8');
    if (text.length > MAX_RECORD_BYTES) return null;
    const record = JSON.parse(text) as DownloadRecord;
    return record.id === id ? record : null;
  } catch {
    return null;
  }
}

/** The public view of a record: what the API and the tools show. */
export function publicDownload({ session_id: _, ...download }: DownloadRecord): SessionDownload {
  return download;
}
