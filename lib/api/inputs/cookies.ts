import { z } from '../zod';
import { cookieProblem, domainProblem, nameOrValueProblem, pathProblem } from './cookie-rules';

/** At most this many cookies in one import (a browser keeps about 3,000 at most). */
export const MAX_IMPORTED_COOKIES = 3000;

/** Text of at most `max` characters that `problem` finds nothing wrong with. */
const Text = (max: number, problem: (text: string) => string | null) =>
  z.string().check(
    z.maxLength(max, `must be at most ${max} characters`),
    z.superRefine((text, ctx) => {
      const message = problem(text);
      if (message) ctx.issues.push({ code: 'custom', message, input: text });
    }),
  );

/** A cookie to import: name, value and domain required, the rest as a browser would default them. */
export const CookieInput = z
  .strictObject({
    name: Text(4096, (name) => nameOrValueProblem(name, 'name')),
    value: Text(4096, (value) => nameOrValueProblem(value, 'value')),
    domain: Text(255, (domain) => (domain === '' ? 'must not be empty' : domainProblem(domain))),
    path: z._default(Text(1024, pathProblem), '/'),
    expires: z._default(z.nullable(z.number().check(z.minimum(0, 'must be 0 or more'))), null),
    secure: z._default(z.boolean(), false),
    http_only: z._default(z.boolean(), false),
    same_site: z._default(z.nullable(z.enum(['Strict', 'Lax', 'None'])), null),
  })
  .check(
    z.superRefine((cookie, ctx) => {
      const problem = cookieProblem(cookie);
      if (problem)
        ctx.issues.push({ code: 'custom', message: problem.message, path: [problem.field], input: cookie });
    }),
  );

export const CookieImport = z
  .array(CookieInput)
  .check(z.maxLength(MAX_IMPORTED_COOKIES, `at most ${MAX_IMPORTED_COOKIES} cookies at once`));

/** GET: `format=netscape` asks for cookies.txt (as `Accept: text/plain` does). PUT: `replace=true` removes the others first. */
export const CookieQuery = z.object({
  format: z.optional(z.enum(['json', 'netscape'])),
  replace: z.optional(z.enum(['true', 'false'])),
});

export type CookieInput = z.input<typeof CookieInput>;
