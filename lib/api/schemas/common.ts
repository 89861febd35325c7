import { z } from '../zod';

export const Timestamp = z.string();

export const Id = z.string().check(z.minLength(1), z.maxLength(100));

/** `{ data, next_cursor }`, newest first. */
export function listOf<T extends z.core.$ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.nullable(z.string()) });
}
