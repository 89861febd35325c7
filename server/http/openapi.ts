import type { Endpoint } from '../../lib/api/endpoint';
import { type EndpointName, endpoints } from '../../lib/api/endpoints';
import { requests } from '../../lib/api/requests';
import { ServiceEvent } from '../../lib/api/schemas/events';
import { z } from '../../lib/api/zod';
import { type EndpointDoc, endpointDocs } from './endpoint-docs';
import { DESCRIPTION } from './openapi-description';
import { HEADERS, PROBLEM_RESPONSES, RATE_LIMIT_HEADER_REFS, servicePaths } from './openapi-responses';
import { componentSchemas, type JsonObject, type Schema, schemaRef } from './openapi-schemas';
import type { Route } from './route';

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
  const { idempotent } = endpoint;
  const { query, body } = requestOf(variants[0]?.[0]);
  const responses: JsonObject = {
    // Variants of another status (a start answered 202 while it waits in line) are answers of their own.
    ...Object.fromEntries(
      variants.map(([, variant]) => [
        variant.status,
        successResponse(
          variants.filter(([, other]) => other.status === variant.status),
          variant,
        ),
      ]),
    ),
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
  if (idempotent) responses['409'] = { $ref: '#/components/responses/Conflict' };
  return {
    operationId: variants.map(([name]) => name).join('Or'),
    summary: textOf(variants, 'summary'),
    ...(textOf(variants, 'description') ? { description: textOf(variants, 'description') } : {}),
    tags: [tagOf(endpoint.path)],
    parameters: [
      ...pathParams,
      ...queryParameters(query),
      ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
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
  if (endpoint.idempotent)
    headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
  const description = textOf(variants, 'summary');
  if (endpoint.stream) {
    return { description, headers, content: { 'text/event-stream': { schema: schemaRef(ServiceEvent) } } };
  }
  if (endpoint.binary) {
    // A download is whatever the page served; every other binary answer is a screenshot or a cookie file.
    const type = variants[0]?.[0] === 'getSessionDownload' ? 'application/octet-stream' : 'image/png';
    return {
      description,
      headers,
      content: { [type]: { schema: { type: 'string', contentMediaType: type } } },
    };
  }
  const schemas = variants.flatMap(([, variant]) => (variant.response ? [schemaRef(variant.response)] : []));
  if (schemas.length === 0) return { description, headers };
  const schema = schemas.length === 1 ? schemas[0] : { oneOf: schemas };
  return { description, headers, content: { 'application/json': { schema } } };
}

/** The endpoints' text, joined when several share one operation; empty when none has any. */
function textOf(variants: [EndpointName, Endpoint][], part: keyof EndpointDoc): string {
  return variants.flatMap(([name]) => endpointDocs[name][part] ?? []).join('; ');
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

function tagOf(path: string): string {
  return path.split('/')[2] ?? 'service';
}
