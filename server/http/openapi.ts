import { maxHeaderSize } from 'node:http';
import { type Endpoint, type EndpointName, endpoints } from '../../lib/api/endpoints';
import { requests } from '../../lib/api/requests';
import { ServiceEvent } from '../../lib/api/schemas/events';
import { Problem } from '../../lib/api/schemas/problem';
import { z } from '../../lib/api/zod';
import { AUTH_FAILURES_PER_MINUTE } from './auth';
import { IDEMPOTENCY_TTL_MS } from './idempotency';
import { componentSchemas as components, endpointSummaries } from './openapi-meta';
import type { Route } from './route';
import { MAX_BODY_BYTES } from './validate';

type JsonObject = Record<string, unknown>;
type Schema = z.core.$ZodType;

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

const DESCRIPTION = `The HTTP API of Profile Pilot: browser profiles, proxies, sessions and automation runs.

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

/**
 * The OpenAPI 3.1 document of the service, built from the routes it declares (each names its endpoints in
 * lib/api's table) and the contract's named schemas.
 */
export function buildOpenApiDocument(version: string, routes: Route[]): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Profile Pilot service API', version, description: DESCRIPTION },
    security: [{ bearerAuth: [] }],
    tags: ['account', 'profiles', 'proxies', 'sessions', 'automation', 'service'].map((name) => ({ name })),
    paths: { ...endpointPaths(routes.flatMap((declared) => declared.names)), ...servicePaths() },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key such as pp_live_…' },
      },
      schemas: componentSchemas(),
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'A fresh value (a UUID) per create; the same value when retrying it.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      responses: PROBLEM_RESPONSES,
    },
  };
}

function componentSchemas(): JsonObject {
  // `metadata`: the registry's descriptions and rules between fields go into the schemas, not only their ids.
  const { schemas } = z.toJSONSchema(components, {
    uri: COMPONENT,
    io: 'input',
    unrepresentable: 'any',
    metadata: components,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema as JsonObject;
      return [id, rest];
    }),
  );
}

function endpointPaths(names: EndpointName[]): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const grouped = new Map<string, [EndpointName, Endpoint][]>();
  for (const name of names) {
    const endpoint: Endpoint = endpoints[name];
    const key = `${endpoint.method} ${endpoint.path}`;
    grouped.set(key, [...(grouped.get(key) ?? []), [name, endpoint]]);
  }
  for (const variants of grouped.values()) {
    const endpoint = variants[0]?.[1];
    if (!endpoint) continue;
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = operation(variants, endpoint);
  }
  return paths;
}

function requestOf(name: EndpointName | undefined): { query?: Schema; body?: Schema } {
  return name && name in requests ? requests[name as keyof typeof requests] : {};
}

/** One operation; endpoints that share method and path (run and run list) become one with either answer. */
function operation(variants: [EndpointName, Endpoint][], endpoint: Endpoint): JsonObject {
  const pathParams = [...endpoint.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const isPost = endpoint.method === 'POST';
  const { query, body } = requestOf(variants[0]?.[0]);
  const responses: JsonObject = {
    [endpoint.status]: successResponse(variants, endpoint),
    '401': { $ref: '#/components/responses/Unauthorized' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
    default: { $ref: '#/components/responses/Problem' },
  };
  if (pathParams.length > 0) responses['404'] = { $ref: '#/components/responses/NotFound' };
  if (query || body) responses['422'] = { $ref: '#/components/responses/ValidationFailed' };
  if (body) {
    responses['400'] = { $ref: '#/components/responses/MalformedJson' };
    responses['413'] = { $ref: '#/components/responses/PayloadTooLarge' };
    responses['415'] = { $ref: '#/components/responses/UnsupportedMediaType' };
  }
  if (isPost) responses['409'] = { $ref: '#/components/responses/Conflict' };
  return {
    operationId: variants.map(([name]) => name).join('Or'),
    summary: variants.map(([name]) => endpointSummaries[name]).join('; '),
    tags: [tagOf(endpoint.path)],
    parameters: [
      ...pathParams,
      ...queryParameters(query),
      ...(isPost ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ],
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaRef(body) } },
          },
        }
      : {}),
    responses,
  };
}

function successResponse(variants: [EndpointName, Endpoint][], endpoint: Endpoint): JsonObject {
  const headers: JsonObject = { ...RATE_LIMIT_HEADER_REFS };
  if (endpoint.status === 201 || endpoint.status === 202)
    headers.Location = { $ref: '#/components/headers/Location' };
  if (endpoint.method === 'POST')
    headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
  const description = variants.map(([name]) => endpointSummaries[name]).join('; ');
  if (endpoint.stream) {
    return { description, headers, content: { 'text/event-stream': { schema: schemaRef(ServiceEvent) } } };
  }
  if (endpoint.binary) {
    return {
      description,
      headers,
      content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
    };
  }
  const schemas = variants.flatMap(([, variant]) => (variant.response ? [schemaRef(variant.response)] : []));
  if (schemas.length === 0) return { description, headers };
  const schema = schemas.length === 1 ? schemas[0] : { oneOf: schemas };
  return { description, headers, content: { 'application/json': { schema } } };
}

function queryParameters(query: Schema | undefined): JsonObject[] {
  if (!query) return [];
  const shape =
    (query as unknown as { _zod: { def: { shape?: Record<string, Schema> } } })._zod.def.shape ?? {};
  return Object.entries(shape).map(([name, field]) => {
    const { $schema: _schema, ...schema } = z.toJSONSchema(field, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonObject;
    // `optin` is 'optional' for optional fields and 'defaulted' for fields with a default.
    const required = (field as unknown as { _zod: { optin?: string } })._zod.optin === undefined;
    const description = QUERY_DESCRIPTIONS[name];
    return { name, in: 'query', required, ...(description ? { description } : {}), schema };
  });
}

/** What a query parameter's schema cannot say. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  cursor: 'The `next_cursor` of the previous page, as it came. Absent or empty: the first page.',
  session_id: 'The session to stop; give this or `profile_id`, not both.',
  profile_id: 'The profile whose session to stop; give this or `session_id`, not both.',
};

function schemaRef(schema: Schema): JsonObject {
  const id = components.get(schema)?.id;
  if (id) return { $ref: COMPONENT(id) };
  const { $schema: _schema, ...inline } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonObject;
  return inline;
}

function tagOf(path: string): string {
  return path.split('/')[2] ?? 'service';
}

function servicePaths(): JsonObject {
  return {
    '/healthz': {
      get: {
        operationId: 'health',
        summary: 'Liveness of the service (no key needed)',
        tags: ['service'],
        security: [],
        responses: {
          '200': {
            description: 'The service is up',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    status: { const: 'ok' },
                    version: { type: 'string' },
                    uptime_s: { type: 'number' },
                  },
                  required: ['status', 'version', 'uptime_s'],
                },
              },
            },
          },
        },
      },
    },
    '/v1/mcp': {
      post: {
        operationId: 'mcp',
        summary:
          'MCP (Model Context Protocol) for AI agents: Streamable HTTP, stateless, JSON answers. The tools ' +
          '(tools/list) are the profile, proxy, session, run and cookie operations and browser_* page tools; ' +
          'each tools/call counts as one request of the hourly limit, other messages do not',
        tags: ['service'],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message' } },
          },
        },
        responses: {
          '200': {
            description: 'The JSON-RPC answer',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '202': { description: 'A notification, taken' },
        },
      },
    },
    '/v1/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document (no key needed)',
        tags: ['service'],
        security: [],
        responses: {
          '200': {
            description: 'OpenAPI 3.1',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  };
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const HEADERS: JsonObject = {
  RateLimit: {
    description: 'IETF RateLimit: "hourly";r=<requests remaining>;t=<seconds until a request is freed>',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy: "hourly";q=<limit>;w=3600',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': integerHeader('Requests allowed per sliding hour'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Seconds until the oldest counted request leaves the window'),
  'Retry-After': integerHeader('Seconds to wait before retrying'),
  Location: {
    description: 'Where the created resource (or the run status) is read',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '"true" when this is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

const RATE_LIMIT_HEADER_REFS = Object.fromEntries(
  ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map(
    (name) => [name, { $ref: `#/components/headers/${name}` }],
  ),
);

function problem(description: string, headers: JsonObject = RATE_LIMIT_HEADER_REFS): JsonObject {
  return {
    description,
    headers,
    content: { 'application/problem+json': { schema: schemaRef(Problem) } },
  };
}

const PROBLEM_RESPONSES: JsonObject = {
  Problem: problem('An error, as RFC 9457 problem details with a stable `code`'),
  Unauthorized: problem('`unauthorized`: missing, malformed, unknown or revoked key', {
    'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } },
  }),
  NotFound: problem('`not_found`: no such resource for this account'),
  MalformedJson: problem('`malformed_json`: the body is not valid JSON'),
  PayloadTooLarge: problem('`payload_too_large`: the body is larger than 1 MiB'),
  UnsupportedMediaType: problem('`unsupported_media_type`: the body is not sent as application/json'),
  ValidationFailed: problem('`validation_failed` (with `errors`) or `idempotency_key_reused`'),
  Conflict: problem('A conflict such as `idempotency_in_flight`, `profile_running`, `session_exists`'),
  TooManyRequests: problem(
    '`rate_limited`: over the hourly limit of the plan, or too many failed authentications',
    {
      ...RATE_LIMIT_HEADER_REFS,
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
    },
  ),
};
