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

/**
 * Refuses an address that looks like a URL (scheme://…, the field's own pattern checks the look) but is none a
 * browser or the service can open, such as one with a zone id (fe80::1%25eth0: an interface of the machine
 * that reads it, never a destination) or a broken host.
 */
export const openableUrl = z.superRefine((text: string, ctx) => {
  if (!text.includes('://')) return;
  const problem = /^[^/]*\/\/[^/?#]*\[[^\]]*%/.test(text)
    ? 'must not hold an IPv6 zone id (the “%…” inside [ ])'
    : URL.canParse(text)
      ? null
      : 'is not a valid address';
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: text });
});
