import type { Tracer } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Job } from '../core/lifecycle';
import type { AppEnv } from './env';

/** Traces of the service's requests over OTLP/HTTP; its packages are loaded only when traces are asked for. */
export interface Tracing extends Job {
  traceRequests: MiddlewareHandler<AppEnv>;
}

const SERVER_SPAN = 1; // SpanKind.SERVER
const ERROR_STATUS = 2; // SpanStatusCode.ERROR

export function tracingTo(endpoint: string | null, version: string): Tracing | null {
  if (endpoint === null) return null;
  let tracer: Tracer | null = null;
  let stopSdk = async () => {};
  return {
    name: 'traces',
    async start() {
      const [{ NodeSDK }, { OTLPTraceExporter }, api] = await Promise.all([
        import('@opentelemetry/sdk-node'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/api'),
      ]);
      const sdk = new NodeSDK({
        serviceName: 'profile-pilot',
        traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
        instrumentations: [],
      });
      sdk.start();
      tracer = api.trace.getTracer('profile-pilot', version);
      stopSdk = () => sdk.shutdown();
    },
    // Last to stop: what the other jobs did while stopping is sent too.
    stop: () => stopSdk(),
    async traceRequests(c, next) {
      if (tracer === null) return next();
      const span = tracer.startSpan(c.req.method, { kind: SERVER_SPAN });
      await next();
      const route = routePath(c);
      span.updateName(`${c.req.method} ${route}`);
      span.setAttributes({
        'http.request.method': c.req.method,
        'http.route': route,
        'http.response.status_code': c.res.status,
      });
      if (c.res.status >= 500) span.setStatus({ code: ERROR_STATUS });
      span.end();
    },
  };
}
