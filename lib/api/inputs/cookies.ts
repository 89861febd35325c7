import { z } from '../zod';

/** At most this many cookies in one import (a browser keeps about 3,000 at most). */
export const MAX_IMPORTED_COOKIES = 3000;

const Text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));

/** A cookie to import: name, value and domain required, the rest as a browser would default them. */
export const CookieInput = z.strictObject({
  name: Text(4096),
  value: Text(4096),
  domain: Text(255).check(z.minLength(1, 'must not be empty')),
  path: z._default(Text(1024), '/'),
  expires: z._default(z.nullable(z.number().check(z.minimum(0, 'must be 0 or more'))), null),
  secure: z._default(z.boolean(), false),
  http_only: z._default(z.boolean(), false),
  same_site: z._default(z.nullable(z.enum(['Strict', 'Lax', 'None'])), null),
});

export const CookieImport = z
  .array(CookieInput)
  .check(z.maxLength(MAX_IMPORTED_COOKIES, `at most ${MAX_IMPORTED_COOKIES} cookies at once`));

/** GET: `format=netscape` asks for cookies.txt (as `Accept: text/plain` does). PUT: `replace=true` removes the others first. */
export const CookieQuery = z.object({
  format: z.optional(z.enum(['json', 'netscape'])),
  replace: z.optional(z.enum(['true', 'false'])),
});

export type CookieInput = z.input<typeof CookieInput>;
