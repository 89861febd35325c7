import type { z } from 'zod/mini';

/**
 * The message of every zod issue whose schema gave none, installed as zod's `customError`. zod/mini ships no
 * English messages (they would cost the popup kilobytes), and a locale loaded by another package (Playwright
 * bundles zod) must not change what the service answers, so the wording lives here.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      return 'does not match any allowed shape';
    case 'too_small':
      return `must be at least ${issue.minimum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${issue.origin === 'string' ? ' characters' : ''}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return 'is not valid';
  }
}

function article(type: string): string {
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
