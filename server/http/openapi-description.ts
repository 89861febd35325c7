import { maxHeaderSize } from 'node:http';
import { AUTH_FAILURES_PER_MINUTE } from './auth';
import { IDEMPOTENCY_TTL_MS } from './idempotency';
import { MAX_BODY_BYTES } from './validate';

/** The document's introduction: what every endpoint shares, with the service's own figures. */
export const DESCRIPTION = `The HTTP API of Profile Pilot: browser profiles, proxies, sessions and automation runs.

**Authentication.** Every /v1 request carries \`Authorization: Bearer <key>\`. Keys look like \`pp_live_…\`
and come from the service's command line (\`npm run service -- keys create --plan free\`). A missing,
malformed, unknown or revoked key is 401 with \`WWW-Authenticate: Bearer\`. More than
${AUTH_FAILURES_PER_MINUTE} failed authentications a minute from one address are answered 429.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) with a stable \`code\`; validation
errors list \`errors: [{ path, message }]\`. Bodies must be JSON (415 otherwise), at most
${MAX_BODY_BYTES / 1024 / 1024} MiB (413), well-formed (400) and valid (422; unknown fields too). Another
account's id answers like an unknown one (404). A known path with another method is 405 with \`Allow\`. Text
holding U+0000 (the NUL character) is refused wherever it is: path, query or body (422). Requests the HTTP
parser refuses get problem details too, and the connection is closed: headers over ${maxHeaderSize / 1024} KiB (431
\`headers_too_large\`), a control character in a header, Content-Length with Transfer-Encoding, HTTP/1.1
without Host (400 \`malformed_request\`), a request that does not arrive in time (408 \`request_timeout\`).

**Rate limits** per account over a sliding hour: free 100, premium 1000, enterprise unlimited. Limited plans
get \`RateLimit-Policy\`, \`RateLimit\` and \`X-RateLimit-*\` on every response; over the limit 429 with
\`Retry-After\`. Refused requests do not count.

**Idempotency.** Every POST accepts \`Idempotency-Key\`: a retry with the same key and body within
${IDEMPOTENCY_TTL_MS / 3600_000} h replays the stored answer with \`Idempotent-Replayed: true\`; another body
is 422 \`idempotency_key_reused\`; a retry while the first request runs is 409 \`idempotency_in_flight\`.

**Lists** answer \`{ data, next_cursor }\`, newest first; pass \`next_cursor\` as \`cursor\` for the next page
(an empty \`cursor\` is the first page).`;
