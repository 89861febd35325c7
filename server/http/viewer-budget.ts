import { formatWait } from '../core/wait';
import { SlidingWindowLimiter } from './sliding-window';

const HOUR_MS = 60 * 60_000;
/** How many times one view-only address may be opened an hour, by whoever has it. */
export const OPENINGS_PER_LINK = 300;
/** How many view-only openings one client address may make an hour, of any links. */
export const OPENINGS_PER_CLIENT = 60;

/**
 * The budget of view-only live views, apart from any account's: a view-only address carries no key and may be
 * shared with anyone, so its openings are counted per link and per client address, never against the hourly
 * limit of the session's owner (who would otherwise be locked out by whoever holds the link).
 */
export class ViewerBudget {
  private readonly byClient = new SlidingWindowLimiter(HOUR_MS);
  private readonly byLink = new SlidingWindowLimiter(HOUR_MS);

  /** Counts an opening of `link` from `client`: null when allowed, else the sentence that refuses it. */
  open(link: string, client: string, nowMs: number): string | null {
    const ofClient = this.byClient.hit(client, OPENINGS_PER_CLIENT, nowMs);
    if (!ofClient.allowed)
      return `This address opened ${OPENINGS_PER_CLIENT} view-only live views in the last hour; the next one is possible in ${formatWait(ofClient.resetSeconds)}.`;
    const ofLink = this.byLink.hit(link, OPENINGS_PER_LINK, nowMs);
    if (!ofLink.allowed)
      return `This view-only link was opened ${OPENINGS_PER_LINK} times in the last hour; it can open again in ${formatWait(ofLink.resetSeconds)}.`;
    return null;
  }
}
