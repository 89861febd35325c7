import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

export const RunStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);

export const StepStatus = z.enum(['pending', 'running', 'succeeded', 'failed', 'skipped']);

export const StepResult = z.object({
  index: z.number(),
  action: z.string(),
  /** The output this step writes (`output[output_name]`), for steps that write one: outputs read in step order. */
  output_name: z.optional(z.string()),
  status: StepStatus,
  started_at: z.optional(Timestamp),
  finished_at: z.optional(Timestamp),
  error: z.optional(z.string()),
});

/** One run of a script. `version` grows with every change, for long-polling with after_version. */
export const AutomationRun = z.object({
  id: Id,
  profile_id: z.string(),
  /** Its profile's name now; null once the profile is deleted, absent from events recorded before it existed. */
  profile_name: z.optional(z.nullable(z.string())),
  session_id: z.nullable(z.string()),
  name: z.nullable(z.string()),
  /** The batch it belongs to: a run on many profiles at once. Absent from events recorded before batches. */
  batch_id: z.optional(z.nullable(z.string())),
  status: RunStatus,
  steps: z.array(StepResult),
  output: z.looseObject({}),
  error: z.nullable(z.string()),
  version: z.number(),
  created_at: Timestamp,
  started_at: z.nullable(Timestamp),
  finished_at: z.nullable(Timestamp),
  /** How many times it was queued again after a passing failure (a crashed browser, a lost node, a proxy timeout). */
  retries: z.optional(z.number()),
});

export const RunList = listOf(AutomationRun);

/**
 * A run on many profiles: counted by each profile's latest run in it (a retried profile counts once), with
 * `summary` as a sentence ("5 of 6 succeeded, 1 failed").
 */
export const Batch = z.object({
  id: Id,
  name: z.nullable(z.string()),
  created_at: Timestamp,
  total: z.number(),
  queued: z.number(),
  running: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  cancelled: z.number(),
  /** Every run of it has finished. */
  finished: z.boolean(),
  /** Paused: its queued runs wait until it is resumed (those running go on). */
  paused: z.boolean(),
  /** How many of its runs were queued again after a passing failure (a crashed browser, a lost node, a proxy timeout). */
  retried: z.number(),
  /** When it should finish at the pace it has kept so far; null until a run has finished, once done, or paused. */
  estimated_finish_at: z.nullable(Timestamp),
  summary: z.string(),
});

export const BatchList = listOf(Batch);

export type RunStatus = z.infer<typeof RunStatus>;

export type StepResult = z.infer<typeof StepResult>;

export type AutomationRun = z.infer<typeof AutomationRun>;

export type Batch = z.infer<typeof Batch>;

export type BatchList = z.infer<typeof BatchList>;
