import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CdpMessage, CdpPipe } from '../../../server/browser/cdp-pipe';
import { attachmentHeaders } from '../../../server/downloads/attachment';
import { readRecords, safeFileName } from '../../../server/downloads/download-files';
import { setUpDownloads } from '../../../server/downloads/download-setup';

/*
 * A session's downloads as the browser reports them on its pipe: recorded beside their bytes under Chromium's
 * id, the page's name made safe, and one that would take the profile over the plan's bound canceled.
 */

function fakePipe() {
  const listeners: ((message: CdpMessage) => void)[] = [];
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const pipe = {
    onMessage: (listener: (message: CdpMessage) => void) => {
      listeners.push(listener);
      return () => {};
    },
    send: async (method: string, params: Record<string, unknown> = {}) => {
      sent.push({ method, params });
      return {};
    },
  } as unknown as CdpPipe;
  const emit = (method: string, params: Record<string, unknown>) => {
    for (const listener of listeners) listener({ method, params });
  };
  return { pipe, sent, emit };
}

const ID_A = '0b6f3c1e-1a2b-4c3d-8e9f-0123456789ab';
const ID_B = '1b6f3c1e-1a2b-4c3d-8e9f-0123456789ab';
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
/** Waits until the records written behind the events say what `check` expects (a fixed wait was too short here). */
const landed = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'downloads-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a session’s downloads', () => {
  it('are saved under their id, recorded with a safe name, and canceled past the plan’s bound', async () => {
    const { pipe, sent, emit } = fakePipe();
    await setUpDownloads(pipe, dir, { sessionId: 'ses_1', maxBytes: 100 * 1024 });
    expect(sent[0]).toEqual({
      method: 'Browser.setDownloadBehavior',
      params: { behavior: 'allowAndName', downloadPath: dir, eventsEnabled: true },
    });

    emit('Browser.downloadWillBegin', { guid: ID_A, suggestedFilename: '../../etc/\u202Epasswd\n.txt' });
    await writeFile(path.join(dir, ID_A), 'x'.repeat(60 * 1024));
    emit('Browser.downloadProgress', {
      guid: ID_A,
      state: 'completed',
      receivedBytes: 60 * 1024,
      totalBytes: 60 * 1024,
    });
    await settle();
    emit('Browser.downloadWillBegin', { guid: ID_B, suggestedFilename: 'big.zip' });
    await writeFile(path.join(dir, ID_B), 'y'.repeat(50));
    emit('Browser.downloadProgress', {
      guid: ID_B,
      state: 'inProgress',
      receivedBytes: 50 * 1024,
      totalBytes: 500 * 1024,
    });

    expect(sent.at(-1)).toEqual({ method: 'Browser.cancelDownload', params: { guid: ID_B } });
    // The records and the part's removal land one after another, behind the events: waited for, on a busy machine.
    await landed(async () => {
      expect(existsSync(path.join(dir, ID_B)), 'the canceled part').toBe(false);
      expect(await readRecords(dir)).toEqual([
        expect.objectContaining({
          id: ID_A,
          name: 'passwd.txt',
          size: 60 * 1024,
          state: 'completed',
          session_id: 'ses_1',
        }),
        expect.objectContaining({
          id: ID_B,
          content_type: 'application/zip',
          state: 'canceled',
          error: "It would take the profile's downloads over the plan's 0.1 MB; the download was canceled.",
        }),
      ]);
    });
  });

  it('count the ones under way too: eight at once are held to the bound together, not each alone', async () => {
    const { pipe, sent, emit } = fakePipe();
    await setUpDownloads(pipe, dir, { sessionId: 'ses_1', maxBytes: 100 * 2 ** 20 });
    const ids = Array.from({ length: 8 }, (_, n) => `${n}b6f3c1e-1a2b-4c3d-8e9f-0123456789ab`);
    for (const guid of ids) emit('Browser.downloadWillBegin', { guid, suggestedFilename: 'part.bin' });
    for (const guid of ids)
      emit('Browser.downloadProgress', {
        guid,
        state: 'inProgress',
        receivedBytes: 2 ** 20,
        totalBytes: 60 * 2 ** 20,
      });

    const canceled = sent
      .filter(({ method }) => method === 'Browser.cancelDownload')
      .map(({ params }) => params.guid);
    expect(canceled).toEqual(ids.slice(1));
    await landed(async () => {
      const records = await readRecords(dir);
      const idsIn = (state: string) => records.filter((record) => record.state === state).map(({ id }) => id);
      expect(idsIn('in_progress')).toEqual([ids[0]]);
      expect(idsIn('canceled').sort()).toEqual(ids.slice(1).sort());
    });
  });

  it('never keep a folder, a control or direction character, or an empty name; are served as attachments', () => {
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('a\\b\\..\\c.pdf')).toBe('c.pdf');
    expect(safeFileName('\u0000\u0007')).toBe('download');
    expect(safeFileName('é'.repeat(300))).toHaveLength(200);
    const headers = attachmentHeaders({
      id: ID_A,
      name: 'naïve "report"; x.csv',
      size: 3,
      content_type: 'text/csv',
      state: 'completed',
      error: null,
      started_at: '2026-01-01T00:00:00Z',
      finished_at: '2026-01-01T00:00:01Z',
    });
    expect(headers['Content-Disposition']).toBe(
      `attachment; filename="na_ve _report__ x.csv"; filename*=UTF-8''na%C3%AFve%20%22report%22%3B%20x.csv`,
    );
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
  });
});
