import { createReadStream, type ReadStream } from 'node:fs';
import type { SessionDownload } from '../../lib/api/schemas/downloads';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import type { Reader } from '../store/scope';
import { findSession } from '../store/sessions';
import {
  type DownloadRecord,
  downloadFile,
  downloadsDir,
  isDownloadId,
  publicDownload,
  readRecord,
  readRecords,
} from './download-files';

/*
 * A session's downloads, for the API and the MCP tools alike. They are read from the profile's folder on this
 * node, running session or stopped, for as long as the profile exists; another account's session is not found.
 */

export interface DownloadsDeps {
  db: Queryable;
  dataDir: string;
}

async function folderOf(deps: DownloadsDeps, reader: Reader, sessionId: string) {
  const row = await findSession(deps.db, reader, sessionId);
  if (!row) throw new NotFound('session');
  return downloadsDir(deps.dataDir, row.profile_id);
}

export async function listSessionDownloads(
  deps: DownloadsDeps,
  reader: Reader,
  sessionId: string,
): Promise<SessionDownload[]> {
  const row = await findSession(deps.db, reader, sessionId);
  if (!row) throw new NotFound('session');
  return downloadsOfSession(deps.dataDir, row);
}

/** The downloads of a session the caller already found to be the account's. */
export async function downloadsOfSession(
  dataDir: string,
  session: { id: string; profile_id: string },
): Promise<SessionDownload[]> {
  const records = await readRecords(downloadsDir(dataDir, session.profile_id));
  return records.filter((record) => record.session_id === session.id).map(publicDownload);
}

/** A finished download of the session: what it is, and its bytes to read. */
export async function openSessionDownload(
  deps: DownloadsDeps,
  reader: Reader,
  sessionId: string,
  fileId: string,
): Promise<{ download: SessionDownload; path: string; open(): ReadStream }> {
  const dir = await folderOf(deps, reader, sessionId);
  const record: DownloadRecord | null = isDownloadId(fileId) ? await readRecord(dir, fileId) : null;
  if (record?.session_id !== sessionId) throw new NotFound('download of this session');
  if (record.state !== 'completed')
    throw new Conflict(
      'download_not_ready',
      record.state === 'in_progress'
        ? 'The download has not finished yet; wait for it and ask again.'
        : `The download did not finish: ${record.error ?? 'it was canceled'}`,
    );
  const path = downloadFile(dir, record.id);
  return { download: publicDownload(record), path, open: () => createReadStream(path) };
}
