import { createReadStream, type ReadStream } from 'node:fs';
import type { SessionDownload } from '../../lib/api/schemas/downloads';
import { Conflict, NotFound } from '../core/domain-errors';
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
 * A session's downloads, for the API and the MCP tools alike, of a session the caller already found to be the
 * account's (sessionOf). They are read from the profile's folder on this node, running session or stopped, for
 * as long as the profile exists.
 */

/** The downloads of the session. */
export async function downloadsOfSession(
  dataDir: string,
  session: { id: string; profile_id: string },
): Promise<SessionDownload[]> {
  const records = await readRecords(downloadsDir(dataDir, session.profile_id));
  return records.filter((record) => record.session_id === session.id).map(publicDownload);
}

/** A finished download of the session: what it is, and its bytes to read. */
export async function openSessionDownload(
  dataDir: string,
  session: { id: string; profile_id: string },
  fileId: string,
): Promise<{ download: SessionDownload; path: string; open(): ReadStream }> {
  const dir = downloadsDir(dataDir, session.profile_id);
  const record: DownloadRecord | null = isDownloadId(fileId) ? await readRecord(dir, fileId) : null;
  if (record?.session_id !== session.id) throw new NotFound('download of this session');
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
