/**
 * Throughput of GET /v1/profiles on the real service: an enterprise key (no rate limit), 50 profiles, N
 * concurrent fetch workers for a fixed time. Run: node --import tsx test/bench/profiles-throughput.ts
 * Settings: CONCURRENCY (16), DURATION_S (10), PROFILES (50); DATABASE_URL to measure on PostgreSQL.
 */
import { createClient } from '../../lib/api/client';
import { startService } from '../server/harness';

const concurrency = Number(process.env.CONCURRENCY ?? 16);
const durationMs = Number(process.env.DURATION_S ?? 10) * 1000;
const profileCount = Number(process.env.PROFILES ?? 50);

const service = await startService();
try {
  const key = await service.createKey('enterprise', 'bench');
  const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  for (let i = 0; i < profileCount; i++) {
    await client.createProfile({
      name: `bench ${i}`,
      proxy: 'http://user:pass@proxy.example:8080',
      tags: ['bench'],
    });
  }
  const url = `${service.baseUrl}/v1/profiles?limit=${profileCount}`;
  const headers = { Authorization: `Bearer ${key}` };
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        const response = await fetch(url, { headers });
        const body = (await response.json()) as { data?: unknown[] };
        if (response.status !== 200 || body.data?.length !== profileCount) failures++;
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) =>
    (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0).toFixed(1);
  console.log(
    JSON.stringify(
      {
        concurrency,
        duration_s: Number(elapsedS.toFixed(1)),
        profiles_per_page: profileCount,
        requests: latencies.length,
        failures,
        requests_per_s: Math.round(latencies.length / elapsedS),
        latency_ms: { p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: percentile(1) },
        database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
      },
      null,
      2,
    ),
  );
  if (failures > 0) process.exitCode = 1;
} finally {
  await service.close();
}
