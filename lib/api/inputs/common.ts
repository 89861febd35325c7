import { z } from '../zod';

export const DisplayName = z
  .string()
  .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters'));

export const Tags = z
  .array(
    z
      .string()
      .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(40, 'must be at most 40 characters')),
  )
  .check(z.maxLength(20, 'at most 20 tags'));

export function queryInt(min: number, max: number) {
  return z.coerce
    .number()
    .check(
      z.int('must be a whole number'),
      z.minimum(min, `must be at least ${min}`),
      z.maximum(max, `must be at most ${max}`),
    );
}

export const PageQuery = {
  limit: z._default(queryInt(1, 100), 50),
  cursor: z.optional(z.string()),
};
