import { boundedText } from '../core/bounded-text';
import type { Clock } from '../core/clock';
import type { WebhookSettings } from '../core/config';
import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { WEBHOOKS_TOPIC } from '../events/event-log';
import type { Publisher } from '../events/publisher';
import {
  claimDueDeliveries,
  type DueDelivery,
  nextDueAt,
  pruneDeliveries,
  recordAttempt,
} from '../store/webhooks';
import { postWebhook } from './post';
import { signedHeaders } from './signing';

/** Deliveries in flight at once, all accounts together (one per account at a time). */
const MAX_IN_FLIGHT = 32;
/** Ended deliveries are listed for a week. */
const KEEP_DELIVERIES_MS = 7 * 24 * 3600 * 1000;

export interface WebhookSenderDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  publisher: Publisher;
  settings: WebhookSettings;
}

/**
 * Sends queued deliveries (queued with their events, see store/events.ts) and retries failed ones on the
 * schedule; a delivery whose every try failed disables its webhook with the reason. A receiver that hangs or
 * fails holds one socket for at most the timeout, and only its own account's deliveries wait meanwhile.
 */
export function webhookSender(deps: WebhookSenderDeps): Job {
  const { db, clock, log, publisher, settings } = deps;
  const busy = new Set<string>();
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;
  let again = false;

  function pump(): void {
    if (stopping.signal.aborted) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = (async () => {
      do {
        again = false;
        await sendDue();
      } while (again && !stopping.signal.aborted);
    })()
      .catch((error: unknown) => log.error('webhook sender failed', { error }))
      .finally(() => {
        pumping = null;
      });
  }

  async function sendDue(): Promise<void> {
    const room = MAX_IN_FLIGHT - busy.size;
    const now = clock.now();
    if (room > 0) {
      const leaseUntil = new Date(now.getTime() + settings.timeoutMs + 60_000);
      const due = await claimDueDeliveries(db, { now, leaseUntil, busy: [...busy], limit: room });
      for (const delivery of due) {
        busy.add(delivery.account_id);
        void attempt(delivery).finally(() => {
          busy.delete(delivery.account_id);
          pump();
        });
      }
    }
    const next = await nextDueAt(db);
    clearTimeout(timer);
    if (next) timer = setTimeout(pump, Math.max(0, next.getTime() - clock.now().getTime())).unref();
  }

  async function attempt(delivery: DueDelivery): Promise<void> {
    const at = clock.now();
    const headers = signedHeaders(
      delivery.secret,
      delivery.id,
      Math.floor(at.getTime() / 1000),
      delivery.payload,
    );
    const outcome = await postWebhook(delivery.url, delivery.payload, headers, {
      allowed: settings.allowed,
      timeoutMs: settings.timeoutMs,
      signal: stopping.signal,
    });
    if (stopping.signal.aborted) return; // leased: tried again after the restart
    const ok = outcome.answered && outcome.status >= 200 && outcome.status < 300;
    const error = ok
      ? null
      : outcome.answered
        ? `The receiver answered ${outcome.status}.`
        : boundedText(outcome.error);
    const delayS = settings.retryDelaysS[delivery.attempts];
    const retryAt = ok || delayS === undefined ? null : new Date(clock.now().getTime() + delayS * 1000);
    const tries = delivery.attempts + 1;
    await db.transaction((tx) =>
      recordAttempt(
        tx,
        delivery.id,
        {
          at,
          ok,
          responseStatus: outcome.answered ? outcome.status : null,
          responseBody: outcome.answered ? outcome.body : null,
          error,
          retryAt,
        },
        `An event could not be delivered in ${tries} tries (the last: ${error}); deliveries stopped. Fix the receiver and create the webhook again.`,
      ),
    );
    if (!ok) log.info('webhook delivery failed', { delivery_id: delivery.id, tries, retry_at: retryAt });
  }

  const unsubscribe = publisher.subscribe(WEBHOOKS_TOPIC, pump);
  return {
    name: 'webhook sender',
    async start() {
      await pruneDeliveries(db, new Date(clock.now().getTime() - KEEP_DELIVERIES_MS));
      pump();
    },
    async stop() {
      unsubscribe();
      stopping.abort();
      clearTimeout(timer);
      await pumping;
    },
  };
}
