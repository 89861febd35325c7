import { Problem } from '../../lib/api/schemas/problem';
import { type JsonObject, schemaRef } from './openapi-schemas';

/** The paths of the service itself, outside the contract's endpoints. */
export function servicePaths(): JsonObject {
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
    '/readyz': {
      get: {
        operationId: 'ready',
        summary:
          'Readiness of this process (no key needed): false while it drains or its database does not answer',
        tags: ['service'],
        security: [],
        responses: {
          '200': {
            description: 'It takes new work',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { status: { const: 'ready' } }, required: ['status'] },
              },
            },
          },
          '503': {
            description: 'It takes no new work: it is draining, or its database does not answer',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    status: { enum: ['draining', 'database_unreachable'] },
                    detail: { type: 'string' },
                  },
                  required: ['status', 'detail'],
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

/** The headers and problem answers operations refer to. */
const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

export const HEADERS: JsonObject = {
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

export const RATE_LIMIT_HEADER_REFS = Object.fromEntries(
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

export const PROBLEM_RESPONSES: JsonObject = {
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
