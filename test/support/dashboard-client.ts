/** A browser's view of the dashboard's endpoints for tests: it keeps the sign-in cookie and sends an Origin. */
export interface DashboardClient {
  /** The sign-in cookie's value as the browser holds it, or undefined. */
  token: string | undefined;
  /** The last Set-Cookie header the service sent. */
  lastSetCookie: string | null;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Calls and answers the JSON body with the status. */
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
}

export function dashboardClient(baseUrl: string, origin = baseUrl): DashboardClient {
  const client: DashboardClient = {
    token: undefined,
    lastSetCookie: null,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${baseUrl}/dashboard/api${path}`, {
        method,
        headers: {
          Origin: origin,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(client.token ? { Cookie: `pp_dashboard=${client.token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) {
        client.lastSetCookie = setCookie;
        const value = /^pp_dashboard=([^;]*)/.exec(setCookie)?.[1];
        client.token = value || undefined;
      }
      return response;
    },
    async json(method, path, body) {
      const response = await client.call(method, path, body);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
  return client;
}
