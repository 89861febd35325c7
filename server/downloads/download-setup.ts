import { rm } from 'node:fs/promises';
import type { CdpMessage, CdpPipe } from '../browser/cdp-pipe';
import {
  type DownloadRecord,
  downloadFile,
  readRecords,
  safeFileName,
  typeOfName,
  writeRecord,
} from './download-files';

const megabytes = (count: number) => `${Number((count / 2 ** 20).toFixed(1))} MB`;

/** What a session's downloads are kept under: whose they are, and the most the profile's downloads may hold. */
export interface DownloadSettings {
  sessionId: string;
  /** The plan's bound on the bytes of the profile's downloads, kept ones and the one under way together. */
  maxBytes: number;
}

/**
 * One step of a session's browser setup: downloads go to the profile's own folder, each saved under the id
 * Chromium gives it, and each is recorded beside its bytes as it begins and ends. A download that would take
 * the profile's downloads over the plan's bound, counting the kept ones and every one under way at what it will
 * weigh, is canceled and its part removed. `log` hears of a record that
 * could not be written.
 */
export async function setUpDownloads(
  pipe: CdpPipe,
  dir: string,
  settings: DownloadSettings,
  log: (error: unknown) => void = () => {},
): Promise<void> {
  const records = new Map<string, DownloadRecord>();
  /** What each download under way will weigh: its total when the server said it, else what came so far. */
  const expected = new Map<string, number>();
  const underWay = () => [...expected.values()].reduce((sum, bytes) => sum + bytes, 0);
  let writes = Promise.resolve();
  const save = (record: DownloadRecord) => {
    writes = writes.then(() => writeRecord(dir, { ...record })).catch(log);
  };
  // Known before the first event, so that downloads reported together are weighed one after another.
  let kept = (await readRecords(dir))
    .filter((record) => record.state === 'completed')
    .reduce((sum, record) => sum + record.size, 0);
  const finish = (record: DownloadRecord, state: 'completed' | 'canceled', error: string | null) => {
    records.delete(record.id);
    expected.delete(record.id);
    Object.assign(record, { state, error, finished_at: new Date().toISOString() });
    save(record);
    if (state === 'completed') kept += record.size;
    else writes = writes.then(() => rm(downloadFile(dir, record.id), { force: true })).catch(log);
  };

  const onEvent = (message: CdpMessage) => {
    if (message.sessionId !== undefined) return;
    const params = message.params ?? {};
    const id = String(params.guid ?? '');
    if (message.method === 'Browser.downloadWillBegin') {
      const name = safeFileName(String(params.suggestedFilename ?? ''));
      const record: DownloadRecord = {
        id,
        session_id: settings.sessionId,
        name,
        size: 0,
        content_type: typeOfName(name),
        state: 'in_progress',
        error: null,
        started_at: new Date().toISOString(),
        finished_at: null,
      };
      records.set(id, record);
      expected.set(id, 0);
      save(record);
      return;
    }
    if (message.method !== 'Browser.downloadProgress') return;
    const record = records.get(id);
    if (!record) return;
    record.size = Math.max(Number(params.receivedBytes) || 0, 0);
    expected.set(id, Math.max(record.size, Number(params.totalBytes) || 0));
    if (params.state === 'completed') finish(record, 'completed', null);
    else if (params.state === 'canceled') finish(record, 'canceled', 'The page or the browser canceled it.');
    else if (kept + underWay() > settings.maxBytes) {
      finish(
        record,
        'canceled',
        `It would take the profile's downloads over the plan's ${megabytes(settings.maxBytes)}; the download was canceled.`,
      );
      pipe.send('Browser.cancelDownload', { guid: id }).catch(() => undefined);
    }
  };
  pipe.onMessage(onEvent);
  await pipe.send('Browser.setDownloadBehavior', {
    behavior: 'allowAndName',
    downloadPath: dir,
    eventsEnabled: true,
  });
}
