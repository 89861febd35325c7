import { describe, expect, it } from 'vitest';
import { createApp } from '../../../server/boot/app';
import { wireService } from '../../../server/boot/wiring';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import { type DashboardEndpoint, dashboardEndpoints } from '../../../server/dashboard/endpoints';
import type { Database } from '../../../server/db/driver';

/*
 * Each dashboard endpoint is declared once (server/dashboard/endpoints.ts) and its handler is typed by that
 * declaration; what the types cannot check is checked here: the live route keeps the declared guard. Without a
 * sign-in cookie and with an empty body, no endpoint reaches the database, so none is opened.
 */
const config = loadConfig({ DATA_DIR: '/nonexistent' });
const log = createLogger({ write: () => {} });
const app = createApp(
  wireService({
    db: {} as Database,
    config,
    log,
    clock: { now: () => new Date() },
    lifecycle: createLifecycle(log),
  }),
);
const origin = `http://127.0.0.1:${config.port}`;

function call(endpoint: DashboardEndpoint) {
  const path = endpoint.path.replace(/:\w+/g, 'missing');
  return app.request(`${origin}/dashboard/api${path}`, {
    method: endpoint.method,
    headers: { Origin: origin, Host: new URL(origin).host, 'Content-Type': 'application/json' },
    body: endpoint.method === 'GET' ? undefined : '{}',
  });
}

describe('the declaration of each dashboard endpoint', () => {
  it('is kept by its live route: signed in first where declared so, an answer never cached', async () => {
    for (const [name, endpoint] of Object.entries(dashboardEndpoints)) {
      const response = await call(endpoint);
      const answer = await response.json().catch(() => ({}));
      expect(response.status, `${name}: the origin is the dashboard's own`).not.toBe(403);
      const refusedUnsigned = response.status === 401 && answer.detail === 'Sign in first.';
      expect(refusedUnsigned, `${name} answered ${response.status}`).toBe(endpoint.signedIn);
      if (response.ok) expect(response.headers.get('cache-control'), name).toBe('no-store');
    }
  });
});
