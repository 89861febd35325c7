import { describe, expect, it } from 'vitest';
import { type EndpointName, endpoints } from '../../../lib/api/endpoints';
import { createApp } from '../../../server/boot/app';
import { wireService } from '../../../server/boot/wiring';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';
import { buildOpenApiDocument } from '../../../server/http/openapi';
import { routes } from '../../../server/routes/index';

/** The app as the service builds it; registering routes touches no database, so none is opened. */
function liveApp() {
  const log = createLogger({ write: () => {} });
  const deps = wireService({
    db: {} as Database,
    config: loadConfig({ DATA_DIR: '/nonexistent' }),
    log,
    clock: { now: () => new Date() },
    lifecycle: createLifecycle(log),
  });
  return createApp(deps);
}

const asKey = (method: string, path: string) => `${method} ${path}`;
const tableKeys = new Set(Object.values(endpoints).map((endpoint) => asKey(endpoint.method, endpoint.path)));
/** Routes of the service itself, outside the v1 contract's table: described apart in the document. */
const SERVICE_ROUTES = ['GET /healthz', 'GET /readyz', 'GET /v1/openapi.json', 'POST /v1/mcp'];
/** The dashboard: its pages and its own endpoints, which take its sign-in cookie and are no part of /v1. */
const DASHBOARD_ROUTES = [
  'GET /',
  'GET /dashboard',
  'GET /dashboard/',
  'GET /dashboard/assets/*',
  'GET /dashboard/api/status',
  'POST /dashboard/api/sign-up',
  'POST /dashboard/api/sign-in',
  'POST /dashboard/api/sign-out',
  'GET /dashboard/api/keys',
  'POST /dashboard/api/keys',
  'DELETE /dashboard/api/keys/:id',
  'GET /dashboard/api/sessions',
  'GET /dashboard/api/sessions/:id/thumbnail',
  'POST /dashboard/api/sessions/:id/stop',
  'POST /dashboard/api/sign-in/link',
  'GET /dashboard/api/usage',
  'PUT /dashboard/api/password',
  'DELETE /dashboard/api/account',
  'GET /dashboard/api/members',
  'PATCH /dashboard/api/members/:id',
  'DELETE /dashboard/api/members/:id',
  'POST /dashboard/api/members/invitations',
  'POST /dashboard/api/invitation',
  'POST /dashboard/api/join',
  'GET /dashboard/api/audit',
  'GET /dashboard/api/batches',
];

/** The live view: its page (the token in the address is its credential) and the page's script and style. */
const LIVE_ROUTES = [
  'GET /live/viewer.js',
  'GET /live/viewer-input.js',
  'GET /live/viewer-help.js',
  'GET /live/viewer.css',
  'GET /live/:session/:token',
];

/** What one node of a cluster asks of another, with the key the nodes share: no part of /v1 either. */
const INTERNAL_ROUTES = [
  'POST /internal/sessions',
  'POST /internal/sessions/:id/stop',
  'POST /internal/runs/:id/cancel',
  'POST /internal/profiles/:id/cookies',
  'POST /internal/sessions/:id/page',
  'POST /internal/sessions/:id/glance',
];

describe('routes and the contract', () => {
  it('declares a route for every endpoint of the table, and none outside it', () => {
    const declared = routes.flatMap((route) => route.names).sort();
    expect(declared).toEqual((Object.keys(endpoints) as EndpointName[]).sort());
  });

  it('answers every endpoint of the table with a live route, and has no live route outside it', () => {
    const live = liveApp()
      .routes.filter((route) => route.method !== 'ALL')
      .map((route) => asKey(route.method, route.path));
    expect(new Set(live)).toEqual(
      new Set([...tableKeys, ...SERVICE_ROUTES, ...DASHBOARD_ROUTES, ...LIVE_ROUTES, ...INTERNAL_ROUTES]),
    );
  });

  it('documents exactly the declared routes', () => {
    const document = buildOpenApiDocument('test', routes) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => asKey(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'))),
    );
    expect(new Set(documented)).toEqual(new Set([...tableKeys, ...SERVICE_ROUTES]));
  });
});
