import { z } from '../zod';

/** A trimmed, non-empty display name of at most 100 characters. */
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
