import type { Context, Hono } from 'hono';
import type { z } from '../../lib/api/zod';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import type { ParamsOf } from '../http/route';
import { readJsonBody, readQuery } from '../http/validate';
import type { DashboardAccount } from '../store/dashboard-accounts';
import { type DashboardEndpoint, type DashboardEndpointName, dashboardEndpoints } from './endpoints';
import { signedIn } from './signed-in';

type Table = typeof dashboardEndpoints;
type Schema = z.core.$ZodType;

/** What a dashboard handler is given: its path parameters, its checked body and query, and the account signed in. */
export interface DashboardInput<N extends DashboardEndpointName> {
  params: ParamsOf<Table[N]['path']>;
  body: Table[N] extends { input: infer S extends Schema } ? z.output<S> : undefined;
  query: Table[N] extends { query: infer S extends Schema } ? z.output<S> : undefined;
  account: Table[N] extends { signedIn: true } ? DashboardAccount : undefined;
}

/** A handler gives back the endpoint's answer (nothing for a 204); the declared status goes with it. */
export type DashboardHandler<N extends DashboardEndpointName> = (
  c: Context<AppEnv>,
  input: DashboardInput<N>,
  deps: AppDeps,
) => Promise<Table[N] extends { answer: infer S extends Schema } ? z.input<S> : undefined>;

/** Handlers by endpoint name: a handler for an undeclared endpoint, or a declared one without, is a type error. */
export type DashboardHandlers<K extends DashboardEndpointName> = { [N in K]: DashboardHandler<N> };

/**
 * Registers every endpoint of the dashboard's table with its handler: method, path and status from the table,
 * the signed-in guard where the table says so, the body and query checked with the table's schemas before the handler runs.
 */
export function registerDashboardEndpoints(
  api: Hono<AppEnv>,
  deps: AppDeps,
  handlers: DashboardHandlers<DashboardEndpointName>,
): void {
  for (const name of Object.keys(dashboardEndpoints) as DashboardEndpointName[]) {
    const endpoint: DashboardEndpoint = dashboardEndpoints[name];
    const handler = handlers[name] as DashboardHandler<DashboardEndpointName>;
    const answer = async (c: Context<AppEnv>) => {
      const body = endpoint.input ? await readJsonBody(c, endpoint.input) : undefined;
      const query = endpoint.query ? readQuery(c, endpoint.query) : undefined;
      const account = endpoint.signedIn ? c.get('dashboardAccount') : undefined;
      const answered = await handler(c, { params: c.req.param(), body, query, account } as never, deps);
      return endpoint.status === 204 ? c.body(null, 204) : c.json(answered, endpoint.status);
    };
    if (endpoint.signedIn) api.on(endpoint.method, endpoint.path, signedIn(deps), answer);
    else api.on(endpoint.method, endpoint.path, answer);
  }
}
