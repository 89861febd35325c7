import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import type { Queryable } from '../db/driver';
import { accountTopic, type Publisher } from '../events/publisher';
import { findOpenRequest } from '../store/help-requests';
import type { ViewerLink } from './screencast-viewer';

/** What the bar shows of a request: enough to answer it, nothing of the account's other work. */
function shownOf(request: HelpRequest) {
  const { id, tab_id, reason, question, choices, expires_at } = request;
  return { id, tab_id, reason, question, choices, expires_at };
}

/**
 * Keeps a controlling viewer's bar showing the session's open request for help (or none): read now, and again
 * whenever the account's events move (a request opened, answered or timed out, on any process).
 * Returns the function that stops following.
 */
export function followHelp(
  deps: { db: Queryable; publisher: Publisher },
  session: { accountId: string; sessionId: string },
  link: Pick<ViewerLink, 'send'>,
): () => void {
  let shownId: string | null | undefined;
  let reading = false;
  let again = false;
  let ended = false;
  const read = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const open = await findOpenRequest(deps.db, session.sessionId);
        const id = open?.request.id ?? null;
        if (!ended && id !== shownId) {
          shownId = id;
          link.send({ type: 'help', request: open ? shownOf(open.request) : null });
        }
      } while (again && !ended);
    } finally {
      reading = false;
    }
  };
  const reread = () => void read().catch(() => {});
  const unsubscribe = deps.publisher.subscribe(accountTopic(session.accountId), reread);
  reread();
  return () => {
    ended = true;
    unsubscribe();
  };
}
