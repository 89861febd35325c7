import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry for the process. Counters are counted where things happen; the
 * gauges are read from the database when /metrics is scraped (see scrape.ts).
 */
export const registry = new Registry();
const registers = [registry];

export const sessionsByState = new Gauge({
  name: 'profile_pilot_sessions',
  help: 'Sessions this node runs, by state.',
  labelNames: ['state'] as const,
  registers,
});

export const runsByState = new Gauge({
  name: 'profile_pilot_runs',
  help: 'Automation runs queued or running in the whole cluster (read from the database: take max(), not sum()).',
  labelNames: ['state'] as const,
  registers,
});

export const sessionStartSeconds = new Histogram({
  name: 'profile_pilot_session_start_seconds',
  help: 'Time from a start request to a running browser.',
  buckets: [0.25, 0.5, 1, 2, 4, 8, 16, 32],
  registers,
});

export const httpRequestSeconds = new Histogram({
  name: 'profile_pilot_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export const relayBytes = new Counter({
  name: 'profile_pilot_relay_bytes_total',
  help: 'DevTools bytes relayed between clients and browsers, by direction.',
  labelNames: ['direction'] as const,
  registers,
});

export const quotaRefusals = new Counter({
  name: 'profile_pilot_quota_refusals_total',
  help: 'Requests refused because an account used its hourly quota (429).',
  registers,
});

export const browserCrashes = new Counter({
  name: 'profile_pilot_browser_crashes_total',
  help: 'Browsers that ended without being asked to (crashed, or closed by the person).',
  registers,
});
