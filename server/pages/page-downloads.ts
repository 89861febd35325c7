import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionDownload } from '../../lib/api/schemas/downloads';
import { PageProblem } from '../core/domain-errors';

import { bytes } from './sentences';

/** How long browser_wait_for waits for a download to end. */
const DOWNLOAD_WAIT_MS = 20_000;
const POLL_MS = 250;

/** The session's downloads as they are now, and the ids an earlier answer already reported finished. */
export interface AgentDownloads {
  list(): Promise<SessionDownload[]>;
  reported: Set<string> | null;
}

export function downloadLine(download: SessionDownload): string {
  const outcome =
    download.state === 'completed' ? bytes(download.size) : `${download.state}: ${download.error ?? ''}`;
  return `${download.id} ${JSON.stringify(download.name)} ${download.content_type}, ${outcome}`;
}

/** Remembers the downloads there are before the agent's first call, so that a wait is for a new one. */
export async function noteDownloadsSoFar(downloads: AgentDownloads): Promise<void> {
  downloads.reported ??= new Set((await downloads.list()).map((download) => download.id));
}

/**
 * Waits until a download no answer has reported yet has ended (completed or canceled) and none other is still
 * under way; answers those, which are then reported.
 */
export async function waitForDownloads(
  downloads: AgentDownloads,
  stop: AbortSignal,
): Promise<SessionDownload[]> {
  const reported = downloads.reported ?? new Set<string>();
  const deadline = Date.now() + DOWNLOAD_WAIT_MS;
  for (;;) {
    const fresh = (await downloads.list()).filter((download) => !reported.has(download.id));
    if (fresh.length > 0 && fresh.every((download) => download.state !== 'in_progress')) {
      for (const download of fresh) reported.add(download.id);
      downloads.reported = reported;
      return fresh;
    }
    if (Date.now() >= deadline)
      throw new PageProblem(
        fresh.length > 0
          ? `${fresh.length} download(s) still under way after 20 s; wait again.`
          : 'No new download within 20 s; click what starts it first.',
      );
    await sleep(POLL_MS, undefined, { signal: stop });
  }
}
