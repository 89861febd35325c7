import type { Context, Hono } from 'hono';
import { type EndpointName, endpoints } from '../../lib/api/endpoints';
import { requests } from '../../lib/api/requests';
import type { z } from '../../lib/api/zod';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import { readJsonBody, readQuery, readRawBody, validate } from './validate';

type Requests = typeof requests;
type Schema = z.core.$ZodType;
type Part<N, K extends 'query' | 'body'> = N extends keyof Requests
  ? Requests[N] extends { [P in K]: infer S extends Schema }
    ? z.output<S>
    : undefined
  : undefined;

/** `{ id: string }` for '/v1/profiles/:id'. */
type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** What a route's handler is given: the request's path parameters, query and body, validated by the contract. */
export interface RouteInput<N extends EndpointName> {
  params: ParamsOf<(typeof endpoints)[N]['path']>;
  query: Part<N, 'query'>;
  body: Part<N, 'body'>;
  /** The endpoint's success status. */
  status: (typeof endpoints)[N]['status'];
}

type Handler<N extends EndpointName> = (
  c: Context<AppEnv>,
  input: RouteInput<N>,
  deps: AppDeps,
) => Response | Promise<Response>;

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
}

/**
 * Declares the route of an endpoint of the contract's table: its method, path and status come from the table,
 * its query and body are validated with the table's request schemas before the handler runs.
 */
export function route<N extends EndpointName>(
  name: N,
  handler: Handler<N>,
  options: RouteOptions = {},
): Route {
  const endpoint = endpoints[name];
  return {
    names: [name, ...(options.alsoAnswers ?? [])],
    register(app, deps) {
      app.on(endpoint.method, endpoint.path, async (c) =>
        handler(c, await readInput(c, name, options), deps),
      );
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
  return { params: c.req.param(), query, body, status: endpoints[name].status } as RouteInput<N>;
}

async function readBody(c: Context<AppEnv>, schema: Schema, { textBody }: RouteOptions): Promise<unknown> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!textBody || type !== 'text/plain') return readJsonBody(c, schema);
  return validate(schema, textBody(new TextDecoder().decode(await readRawBody(c))), 'body');
}

function queryComesAsBody(c: Context<AppEnv>): boolean {
  return Object.keys(c.req.query()).length === 0 && Boolean(c.req.header('content-type'));
}
