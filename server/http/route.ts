import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Endpoint } from '../../lib/api/endpoint';
import { type EndpointName, endpoints } from '../../lib/api/endpoints';
import { requests } from '../../lib/api/requests';
import type { z } from '../../lib/api/zod';
import type { Queryable } from '../db/driver';
import { auditCall } from './audit-call';
import { authorize } from './authorize';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import { type Answer, idempotency, recordAnswer, sendAnswer } from './idempotency';
import { readJsonBody, readQuery, readRawBody, validate } from './validate';

type Table = typeof endpoints;
type Requests = typeof requests;
type Schema = z.core.$ZodType;
type Part<N, K extends 'query' | 'body'> = N extends keyof Requests
  ? Requests[N] extends { [P in K]: infer S extends Schema }
    ? z.output<S>
    : undefined
  : undefined;

/** `{ id: string }` for '/v1/profiles/:id'. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** What a route's handler is given: the request's path parameters, query and body, validated by the contract. */
export interface RouteInput<N extends EndpointName> {
  params: ParamsOf<Table[N]['path']>;
  query: Part<N, 'query'>;
  body: Part<N, 'body'>;
  /** The endpoint's success status. */
  status: Table[N]['status'];
  /**
   * For an endpoint declared idempotent whose writes are one transaction: the answer, with the declared status,
   * stored for the request's Idempotency-Key (if it came with one) in `tx`, so that a crash cannot keep the
   * writes without the answer a retry replays. Return it from the handler. Routes that do not call it have their
   * answer stored once they return.
   */
  keep: Table[N] extends { idempotent: true } ? Keep : never;
}

export type Keep = (tx: Queryable, body: unknown, headers?: Record<string, string>) => Promise<Answer>;

/** A handler answers with a Response, or with the Answer `keep` gave it. */
type Handler<N extends EndpointName> = (
  c: Context<AppEnv>,
  input: RouteInput<N>,
  deps: AppDeps,
) => Response | Answer | Promise<Response | Answer>;

/** A route as the contract declares it; the app registers it and the OpenAPI document describes it. */
export interface Route {
  /** The endpoints of the table this route answers (run and run list share one method and path). */
  names: EndpointName[];
  register(app: Hono<AppEnv>, deps: AppDeps): void;
}

interface RouteOptions {
  /** More endpoints of the table answered by the same method and path. */
  alsoAnswers?: EndpointName[];
  /** The query's fields may come as a JSON body instead (DELETE /v1/sessions/stop). */
  queryOrBody?: true;
  /** A `text/plain` body is read with this instead of as JSON (a cookies.txt), then validated the same way. */
  textBody?: (text: string) => unknown;
  /** The body may hold this many bytes instead of MAX_BODY_BYTES (a sheet of profiles). */
  bodyLimit?: number;
}

/**
 * Declares the route of an endpoint of the contract's table: its method, path and status come from the table, a
 * key whose role may not call it is refused first (lib/api/permissions.ts), its query and body are validated with the table's request schemas before the handler runs, and an endpoint the
 * table declares idempotent claims, stores and replays its Idempotency-Key (idempotency.ts) around the handler.
 */
export function route<N extends EndpointName>(
  name: N,
  handler: Handler<N>,
  options: RouteOptions = {},
): Route {
  const endpoint: Endpoint = endpoints[name];
  return {
    names: [name, ...(options.alsoAnswers ?? [])],
    register(app, deps) {
      const answer = async (c: Context<AppEnv>) => {
        const input = await readInput(c, name, options);
        const reply = await handler(c, input, deps);
        await auditCall(c, name, input, reply, deps);
        return reply instanceof Response ? reply : sendAnswer(c, reply);
      };
      const guard = endpoint.idempotent ? idempotency(deps.db, deps.clock) : null;
      const before: MiddlewareHandler<AppEnv> = (c, next) => {
        c.set('bodyLimit', options.bodyLimit);
        return guard ? guard(c, next) : next();
      };
      app.on(endpoint.method, endpoint.path, authorize(name), before, answer);
    },
  };
}

async function readInput<N extends EndpointName>(
  c: Context<AppEnv>,
  name: N,
  options: RouteOptions,
): Promise<RouteInput<N>> {
  const schemas: { query?: Schema; body?: Schema } = name in requests ? requests[name as keyof Requests] : {};
  let query: unknown;
  if (schemas.query)
    query =
      options.queryOrBody && queryComesAsBody(c)
        ? await readJsonBody(c, schemas.query)
        : readQuery(c, schemas.query);
  const body = schemas.body ? await readBody(c, schemas.body, options) : undefined;
  const { status } = endpoints[name];
  const keep: Keep = (tx, answer, headers) => recordAnswer(c, tx, { status, body: answer, headers });
  return { params: c.req.param(), query, body, status, keep } as RouteInput<N>;
}

async function readBody(c: Context<AppEnv>, schema: Schema, { textBody }: RouteOptions): Promise<unknown> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!textBody || type !== 'text/plain') return readJsonBody(c, schema);
  return validate(schema, textBody(new TextDecoder().decode(await readRawBody(c))), 'body');
}

function queryComesAsBody(c: Context<AppEnv>): boolean {
  return Object.keys(c.req.query()).length === 0 && Boolean(c.req.header('content-type'));
}
