import { toFieldErrors } from '../lib/api/issues';
import type { FieldError } from '../lib/api/schemas/problem';
import { z } from '../lib/api/zod';

/** What a schema finds wrong with a value, one `{ path, message }` per problem. */
export function check(schema: z.core.$ZodType, value: unknown): FieldError[] {
  const result = z.safeParse(schema, value);
  return result.success ? [] : toFieldErrors(result.error.issues);
}

/** The first error about a field or anything inside it (`tags` covers `tags[2]`). */
export function errorAt(errors: FieldError[] | undefined, field: string): string | undefined {
  return errors?.find(
    ({ path }) => path === field || path.startsWith(`${field}[`) || path.startsWith(`${field}.`),
  )?.message;
}
