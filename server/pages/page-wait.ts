import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import type { PageAnswer } from '../../lib/api/inputs/page-tools';
import { PageProblem } from '../core/domain-errors';
import { type AgentDownloads, downloadLine, waitForDownloads } from './page-downloads';

import { where } from './page-where';

/** browser_wait_for: text to appear or go, time to pass, a new download to end; in that order, each 20 s at most. */
export async function waitFor(
  page: Page,
  downloads: AgentDownloads,
  {
    text,
    text_gone,
    time,
    download,
  }: { text?: string; text_gone?: string; time?: number; download?: boolean },
  stop: AbortSignal,
): Promise<PageAnswer> {
  if (text === undefined && text_gone === undefined && time === undefined && !download)
    throw new PageProblem('Give text, text_gone, time or download to wait for.');
  const timeout = 20_000;
  const late = (what: string) => () => {
    throw new PageProblem(`${what} within 20 s.`);
  };
  if (time !== undefined) await sleep(time * 1000, undefined, { signal: stop });
  if (text !== undefined)
    await page
      .getByText(text)
      .first()
      .waitFor({ state: 'visible', timeout })
      .catch(late(`${JSON.stringify(text)} did not appear`));
  if (text_gone !== undefined)
    await page
      .getByText(text_gone)
      .first()
      .waitFor({ state: 'hidden', timeout })
      .catch(late(`${JSON.stringify(text_gone)} did not go away`));
  if (!download) return where(page, 'Waited.');
  const ended = await waitForDownloads(downloads, stop);
  return where(
    page,
    `Downloads ended:\n${ended.map(downloadLine).join('\n')}\nRead one with session_downloads.`,
  );
}
