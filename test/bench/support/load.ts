import autocannon from 'autocannon';
import { cpuSeconds } from './proc-cpu';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU milliseconds per answered request, the measured processes (and their children) together. */
  cpuMsPerRequest: number;
  failures: number;
}

/** Sends `request` over `connections` keep-alive connections for `durationS`, measuring the CPU of `pids`. */
export async function measureLoad(
  origin: string,
  request: LoadRequest,
  options: { connections: number; durationS: number; pids: readonly number[] },
): Promise<LoadFigures> {
  const cpuBefore = cpuSeconds(options.pids);
  const result = await autocannon({
    url: `${origin}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    duration: options.durationS,
  });
  const cpu = cpuSeconds(options.pids) - cpuBefore;
  const answered = result['2xx'];
  return {
    requestsPerSecond: answered / options.durationS,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMsPerRequest: answered > 0 ? (cpu * 1000) / answered : Number.NaN,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
