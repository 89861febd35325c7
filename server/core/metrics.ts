import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, one registry for the process. Counters are counted where things happen; the
 * gauges are read from the database when /metrics is scraped (see scrape.ts).
 */
export const registry = new Registry();
const registers = [registry];
const named = (name: string) => `profile_pilot_${name}`;

const gauge = <Label extends string>(name: string, help: string, labelNames: readonly Label[]) =>
  new Gauge<Label>({ name: named(name), help, labelNames, registers });
const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[] = []) =>
  new Counter<Label>({ name: named(name), help, labelNames, registers });
const histogram = <Label extends string>(
  name: string,
  help: string,
  buckets: number[],
  labelNames: readonly Label[] = [],
) => new Histogram<Label>({ name: named(name), help, buckets, labelNames, registers });

export const sessionsByState = gauge('sessions', 'Sessions this node runs, by state.', ['state']);

export const runsByState = gauge(
  'runs',
  'Automation runs queued or running in the whole cluster (read from the database: take max(), not sum()).',
  ['state'],
);

export const sessionStartSeconds = histogram(
  'session_start_seconds',
  'Time from a start request to a running browser.',
  [0.25, 0.5, 1, 2, 4, 8, 16, 32],
);

export const httpRequestSeconds = histogram(
  'http_request_duration_seconds',
  'HTTP requests by method, route pattern and status.',
  [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  ['method', 'route', 'status'],
);

export const relayBytes = counter(
  'relay_bytes_total',
  'DevTools bytes relayed between clients and browsers, by direction.',
  ['direction'],
);

export const quotaRefusals = counter(
  'quota_refusals_total',
  'Requests refused because an account used its hourly quota (429).',
);

export const browserCrashes = counter(
  'browser_crashes_total',
  'Browsers that ended without being asked to (crashed, or closed by the person).',
);
