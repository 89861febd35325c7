import { z } from '../zod';

/** How long a person has to answer when the asker does not say, and the most it may give. */
export const HELP_DEFAULT_TIMEOUT_MS = 300_000;
export const HELP_MAX_TIMEOUT_MS = 3_600_000;

export const Choice = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters'));

/**
 * What an agent's `request_human` and a run's `ask_human` step give: why a person is needed (shown in the
 * notification), what to ask, the answers to choose from, and how long to wait.
 */
export const HelpFields = {
  reason: z
    .string()
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  question: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'must not be empty'),
        z.maxLength(1000, 'must be at most 1000 characters'),
      ),
  ),
  choices: z.optional(
    z.array(Choice).check(z.minLength(2, 'give at least 2'), z.maxLength(10, 'at most 10')),
  ),
  timeout_ms: z.optional(
    z
      .int()
      .check(
        z.minimum(5000, 'must be at least 5000'),
        z.maximum(HELP_MAX_TIMEOUT_MS, `must be at most ${HELP_MAX_TIMEOUT_MS}`),
      ),
  ),
};

/** The fields as the service has them once checked. */
export interface HelpFields {
  reason: string;
  question?: string;
  choices?: string[];
  timeout_ms?: number;
}
