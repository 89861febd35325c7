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
  status: RunStatus,
  steps: z.array(StepResult),
  output: z.looseObject({}),
  error: z.nullable(z.string()),
  version: z.number(),
  created_at: Timestamp,
  started_at: z.nullable(Timestamp),
  finished_at: z.nullable(Timestamp),
});

export const RunList = listOf(AutomationRun);

export type RunStatus = z.infer<typeof RunStatus>;

export type StepResult = z.infer<typeof StepResult>;

export type AutomationRun = z.infer<typeof AutomationRun>;
