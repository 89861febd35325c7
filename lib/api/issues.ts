import type { FieldError } from './schemas/problem';
import { z } from './zod';

/**
 * safeParse that keeps each issue's input, so a wrong type ("must be a string") can be told from a missing
 * field ("is required"): zod leaves `input` out of issues unless asked.
 */
export function parseReporting<T extends z.core.$ZodType>(schema: T, data: unknown) {
  return z.safeParse(schema, data, { reportInput: true });
}

/** Joins an issue path the way people read it: `steps[2].url`, `fingerprint.screen.width`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

/**
 * A sentence fragment for one zod issue. zod/mini ships no English messages (they would cost the popup
 * kilobytes), so schemas give their own where it matters and the common codes are described here.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
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

/** Field errors for a problem body: one `{ path, message }` per issue; an unknown key names itself. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({ path: formatPath(issue.path), message: describeIssue(issue) }));
}

/** One line naming the first field at fault: "steps[0].url: must be an http:// or https:// address". */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const [first] = toFieldErrors(issues);
  if (!first) return 'is not valid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return first.path ? `${first.path}: ${first.message}${more}` : `${first.message}${more}`;
}
