import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { openRequests } from '../../lib/storage';
import { inTurn } from './in-turn';

export interface InboxDeps {
  /** A client, or a `no_key` error. */
  api(): Promise<ApiClient>;
  /** Tells the person a request came (a notification). */
  announce(request: HelpRequest): Promise<void>;
  /** The request ended: its notification goes. */
  withdraw(requestId: string): Promise<void>;
  openTab(url: string): Promise<void>;
}

export type Inbox = ReturnType<typeof createInbox>;

/**
 * The person's inbox of requests for help (an agent's request_human, a run's ask_human): the open ones kept in
 * storage for the badge and the popup, each announced once when it comes and withdrawn when it ends, whoever
 * answered it; Take over opens the live view on the tab that asked.
 */
export function createInbox(deps: InboxDeps) {
  /** Stores `next` as the open requests; announces those new to the list, withdraws those gone from it. */
  async function keep(next: (open: HelpRequest[]) => HelpRequest[]): Promise<void> {
    const [before, after] = await inTurn(async () => {
      const known = await openRequests.getValue();
      const kept = next(known);
      await openRequests.setValue(kept);
      return [known, kept];
    });
    const ids = (list: HelpRequest[]) => new Set(list.map((request) => request.id));
    const [had, has] = [ids(before), ids(after)];
    await Promise.all([
      ...after.filter((request) => !had.has(request.id)).map((request) => deps.announce(request)),
      ...before.filter((request) => !has.has(request.id)).map((request) => deps.withdraw(request.id)),
    ]);
  }

  const without = (open: HelpRequest[], id: string) => open.filter((request) => request.id !== id);

  return {
    /** An event of the stream: a request opened, or ended. */
    apply(request: HelpRequest): Promise<void> {
      return keep((open) =>
        request.status === 'open' ? [request, ...without(open, request.id)] : without(open, request.id),
      );
    },

    /** The open requests from the service (the stream opened afresh, or the popup asks). */
    async refresh(): Promise<void> {
      const { data } = await (await deps.api()).listHelpRequests({ status: 'open', limit: 100 });
      await keep(() => data);
    },

    /** Opens the live view on the tab that asked; false when its session no longer runs. */
    async takeOver(requestId: string): Promise<boolean> {
      const client = await deps.api();
      const request =
        (await openRequests.getValue()).find((open) => open.id === requestId) ??
        (await client.getHelpRequest(requestId));
      const url = (await client.getSession(request.session_id)).live_view_url;
      if (!url) return false;
      await deps.openTab(`${url}#tab=${encodeURIComponent(request.tab_id)}`);
      return true;
    },

    /** The person's answer. One the service refuses as ended (answered elsewhere, timed out) leaves the list. */
    async answer(requestId: string, answer: HelpAnswer): Promise<void> {
      try {
        const answered = await (await deps.api()).answerHelpRequest(requestId, answer);
        await keep((open) => without(open, answered.id));
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 409))
          await keep((open) => without(open, requestId));
        throw error;
      }
    },
  };
}
