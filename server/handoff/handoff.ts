import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import { HELP_DEFAULT_TIMEOUT_MS, type HelpFields } from '../../lib/api/inputs/help-requests';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { Job } from '../core/lifecycle';
import type { Database, Queryable } from '../db/driver';
import type { EventLog } from '../events/event-log';
import { helpTopic, type Publisher } from '../events/publisher';
import {
  answerOpenRequest,
  countOpenRequests,
  expireDueRequests,
  findHelpRequest,
  findOpenRequest,
  insertHelpRequest,
  pruneClosedRequests,
  type StoredHelpRequest,
  withdrawRequestsOfEndedSessions,
  withdrawRequestsOfTab,
} from '../store/help-requests';
import { giveBackTakenOver } from '../store/help-takeovers';
import { everything, type Reader } from '../store/scope';
import {
  alreadyAnswered,
  helpPending,
  MAX_OPEN_REQUESTS,
  notAChoice,
  timedOut,
  tooManyOpen,
} from './handoff-errors';

/** A waiter reads its request at least this often, in case a wake-up was missed (a lost NOTIFY connection). */
const RECHECK_MS = 5_000;
const EXPIRE_EVERY_MS = 5_000;
/** Closed requests are listed this long after their end, then deleted. */
const CLOSED_KEPT_MS = 24 * 3_600_000;

/** The tab that asks: its session (and profile), its DevTools target id, and the run whose step asks, if any. */
export interface HelpTarget {
  accountId: string;
  sessionId: string;
  profileId: string;
  tabId: string;
  runId: string | null;
}

export interface Handoff {
  /**
   * Opens a request on the tab (refused while the tab has one open) and waits for its end: the person's answer,
   * or timed out at its expiry (the asker's `deadline` when that comes first). Answers the request as it ended,
   * or still open when `abandoned` aborts first (the caller went away; the request waits on, to expire).
   */
  ask(
    target: HelpTarget,
    fields: HelpFields,
    options: { deadline?: number; abandoned: AbortSignal },
  ): Promise<HelpRequest>;
  /** The person's answer: once, before the request expires. */
  answer(reader: Reader, id: string, answer: HelpAnswer): Promise<HelpRequest>;
  /** The tab closed: its open request ends withdrawn, and whoever waits on it hears so. */
  withdrawTab(sessionId: string, tabId: string): Promise<void>;
  /**
   * Every few seconds on every process: requests whose time is up end timed out, those whose session ended end
   * withdrawn (nobody may wait on them).
   */
  expiry: Job;
}

export function createHandoff(deps: {
  db: Database;
  clock: Clock;
  events: EventLog;
  publisher: Publisher;
}): Handoff {
  const { db, clock, events, publisher } = deps;

  /** Reports the ended requests, and gives the profiles people took over back to their agents. */
  const reportAll = async (
    tx: Queryable,
    ended: StoredHelpRequest[],
    emit: Parameters<Parameters<EventLog['writeWithEvents']>[0]>[1],
  ) => {
    await giveBackTakenOver(
      tx,
      ended.map((each) => each.request.id),
    );
    await Promise.all(ended.map((each) => emit(each.accountId, 'session.help_answered', each.request)));
  };

  /** Ends the request as timed out if it is open and its time is up (whoever comes first reports it). */
  const expire = (id: string) =>
    events.writeWithEvents(async (tx, emit) =>
      reportAll(tx, await expireDueRequests(tx, clock.now(), { id }), emit),
    );

  async function open(target: HelpTarget, fields: HelpFields, deadline: number): Promise<HelpRequest> {
    const now = clock.now();
    const expiresAt = new Date(
      Math.min(now.getTime() + (fields.timeout_ms ?? HELP_DEFAULT_TIMEOUT_MS), deadline),
    );
    return events.writeWithEvents(async (tx, emit) => {
      // A request of the tab whose time is up but that no sweep has closed yet does not hold the tab.
      const tab = { sessionId: target.sessionId, tabId: target.tabId };
      await reportAll(tx, await expireDueRequests(tx, now, tab), emit);
      if ((await countOpenRequests(tx, target.accountId)) >= MAX_OPEN_REQUESTS) throw tooManyOpen();
      const created = await insertHelpRequest(tx, {
        ...target,
        reason: fields.reason,
        question: fields.question ?? null,
        choices: fields.choices ?? [],
        createdAt: now,
        expiresAt,
      });
      if (!created)
        throw helpPending(
          target.sessionId,
          (await findOpenRequest(tx, tab.sessionId, tab.tabId))?.request ?? null,
        );
      await emit(target.accountId, 'session.help_requested', created);
      return created;
    });
  }

  /** The request once it has ended, or as it is when `abandoned` aborts. Woken by the publisher, on any process. */
  async function waitForEnd(
    accountId: string,
    request: HelpRequest,
    abandoned: AbortSignal,
  ): Promise<HelpRequest> {
    let woken = false;
    let wake = () => {};
    // Subscribed before the first read, so that an answer committed between the two is not missed.
    const unsubscribe = publisher.subscribe(helpTopic(request.id), () => {
      woken = true;
      wake();
    });
    try {
      let current = request;
      for (;;) {
        woken = false;
        current = (await findHelpRequest(db, everything(accountId), request.id)) ?? current;
        if (current.status === 'closed' || abandoned.aborted) return current;
        const left = Date.parse(current.expires_at) - clock.now().getTime();
        if (left <= 0) {
          await expire(current.id);
          continue;
        }
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            abandoned.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(left, RECHECK_MS));
          abandoned.addEventListener('abort', done, { once: true });
          wake = done;
        });
        wake = () => {};
      }
    } finally {
      unsubscribe();
    }
  }

  const expireDue = async () => {
    await events.writeWithEvents(async (tx, emit) => {
      await reportAll(tx, await expireDueRequests(tx, clock.now()), emit);
      await reportAll(tx, await withdrawRequestsOfEndedSessions(tx, clock.now()), emit);
    });
    await pruneClosedRequests(db, new Date(clock.now().getTime() - CLOSED_KEPT_MS));
  };

  return {
    async ask(target, fields, { deadline = Number.POSITIVE_INFINITY, abandoned }) {
      const request = await open(target, fields, deadline);
      return waitForEnd(target.accountId, request, abandoned);
    },

    async answer(reader, id, answer) {
      const accountId = reader.id;
      const request = await findHelpRequest(db, reader, id);
      if (!request) throw new NotFound('help request');
      if (answer.outcome === 'choice' && !request.choices.includes(answer.choice ?? ''))
        throw notAChoice(request);
      const now = clock.now();
      const answered = await events.writeWithEvents(async (tx, emit) => {
        const closed = await answerOpenRequest(tx, accountId, id, answer, now);
        if (closed) await reportAll(tx, [{ accountId, request: closed }], emit);
        return closed;
      });
      if (answered) return answered;
      // Answered meanwhile, or its time was up (reported now if no sweep has yet).
      await expire(id);
      const current = (await findHelpRequest(db, reader, id)) ?? request;
      throw current.status === 'closed' ? alreadyAnswered(current) : timedOut(current);
    },

    async withdrawTab(sessionId, tabId) {
      await events.writeWithEvents(async (tx, emit) =>
        reportAll(tx, await withdrawRequestsOfTab(tx, clock.now(), { sessionId, tabId }), emit),
      );
    },

    expiry: {
      name: 'help requests',
      start: expireDue,
      every: { ms: EXPIRE_EVERY_MS, run: () => void expireDue().catch(() => {}) },
    },
  };
}
