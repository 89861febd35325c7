import { z } from '../zod';
import { AutomationRun } from './automation';
import { Id, listOf, Timestamp } from './common';
import { HelpRequest } from './help-requests';
import { AuditRecord } from './leases';
import { Profile } from './profiles';
import { ProxyConfig } from './proxies';
import { ProxyCheckJob } from './proxy-fleet';
import { Session } from './sessions';

/**
 * What the event stream (`GET /v1/events`) and webhooks report. `data` is the resource as the API answers it
 * (a session, a run, a help request, a profile, a proxy; `{ id }` once deleted). A run's events carry the run with its steps;
 * `run.step` adds `step_index`; a run's `output` is left out (`output_omitted: true`) above 16 KiB: read the run.
 * Sessions come without `cdp_url` (ask the session for one). `stream.reset` says events were missed (the
 * Last-Event-ID given is older than the service keeps): read the lists again.
 */
const SESSION_EVENTS = ['session.starting', 'session.running', 'session.stopped', 'session.failed'] as const;
const RUN_EVENTS = ['run.queued', 'run.started', 'run.step', 'run.finished'] as const;
/** A tab of a session asks for a person (an agent's request_human, a run's ask_human), and the request's end. */
const HELP_EVENTS = ['session.help_requested', 'session.help_answered'] as const;

export const EVENT_TYPES = [
  ...SESSION_EVENTS,
  ...RUN_EVENTS,
  ...HELP_EVENTS,
  'profile.created',
  'profile.updated',
  'profile.deleted',
  'proxy.created',
  'proxy.updated',
  'proxy.deleted',
  /** How far a check of every proxy is (POST /v1/proxies/checks): at most one a second while it runs, and its end. */
  'proxies.checking',
  /** An act on a profile or the workspace was recorded in the audit log (`GET /v1/audit`). */
  'audit.recorded',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** A run as its events carry it. */
export const RunEventData = z.extend(AutomationRun, {
  /** The output was left out (above 16 KiB): read the run for it. */
  output_omitted: z.optional(z.literal(true)),
  /** `run.step`: the step that changed. */
  step_index: z.optional(z.number()),
});

/** An event of the given types carrying `data`. */
function eventOf<const T extends readonly [EventType, ...EventType[]], D extends z.core.$ZodType>(
  types: T,
  data: D,
) {
  return z.object({
    /** Increases with every event of the account; the stream's `id:` and what Last-Event-ID resumes after. */
    id: z.string(),
    type: z.enum(types),
    created_at: Timestamp,
    data,
  });
}

/** One event, keyed on `type`: each type names the shape of its `data`. */
export const ServiceEvent = z.discriminatedUnion('type', [
  eventOf(SESSION_EVENTS, Session),
  eventOf(RUN_EVENTS, RunEventData),
  eventOf(HELP_EVENTS, HelpRequest),
  eventOf(['profile.created', 'profile.updated'], Profile),
  eventOf(['proxy.created', 'proxy.updated'], ProxyConfig),
  /** A deleted profile's event carries the tags it had, by which a scoped member's stream keeps it or not. */
  eventOf(['profile.deleted'], z.object({ id: Id, tags: z.optional(z.array(z.string())) })),
  eventOf(['proxy.deleted'], z.object({ id: Id })),
  eventOf(['proxies.checking'], ProxyCheckJob),
  eventOf(['audit.recorded'], AuditRecord),
]);

export type ServiceEvent = z.infer<typeof ServiceEvent>;
export type RunEventData = z.infer<typeof RunEventData>;
/** What an event of type `T` carries. */
export type EventData<T extends EventType> = ServiceEvent extends infer E
  ? E extends { type: infer Types; data: infer Data }
    ? T extends Types
      ? Data
      : never
    : never
  : never;

/** An endpoint that receives the account's events, signed as Standard Webhooks describes. */
export const Webhook = z.object({
  id: Id,
  url: z.string(),
  event_types: z.array(z.string()),
  status: z.enum(['enabled', 'disabled']),
  /** Why deliveries stopped (every retry of a delivery failed for a day), or null. */
  disabled_reason: z.nullable(z.string()),
  created_at: Timestamp,
});

/** As created: the signing secret (`whsec_…`), shown this once. */
export const CreatedWebhook = z.object({ ...Webhook.shape, secret: z.string() });

export const WebhookList = listOf(Webhook);

/** One event sent to a webhook: its attempts so far and the last answer. */
export const WebhookDelivery = z.object({
  id: Id,
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  next_attempt_at: z.nullable(Timestamp),
  last_attempt_at: z.nullable(Timestamp),
  /** The receiver's HTTP status, null when it did not answer. */
  response_status: z.nullable(z.number()),
  /** The start of the receiver's answer (at most 1 KiB). */
  response_body: z.nullable(z.string()),
  /** Why the last attempt failed, as a sentence. */
  error: z.nullable(z.string()),
  created_at: Timestamp,
});

export const WebhookDeliveryList = listOf(WebhookDelivery);

export type Webhook = z.infer<typeof Webhook>;
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
