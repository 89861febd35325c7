import type { FieldError } from './schemas/problem';
import type { z } from './zod';

/** Joins an issue path the way people read it: `steps[2].url`, `fingerprint.screen.width`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

/** The most field errors an answer lists: 3,000 bad cookies are 9,000 errors, and the first few say what to fix. */
export const MAX_FIELD_ERRORS = 20;

/** The first MAX_FIELD_ERRORS of `errors`, and how many more there were. */
export function listedErrors(errors: readonly FieldError[]): { listed: FieldError[]; notListed: number } {
  return {
    listed: errors.slice(0, MAX_FIELD_ERRORS),
    notListed: Math.max(0, errors.length - MAX_FIELD_ERRORS),
  };
}

/** Field errors for a problem body: one `{ path, message }` per issue; an unknown key names itself. */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
}

/** One line naming the first field at fault: "steps[0].url: must be an http:// or https:// address". */
export function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const [first] = toFieldErrors(issues);
  if (!first) return 'is not valid';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return first.path ? `${first.path}: ${first.message}${more}` : `${first.message}${more}`;
}
