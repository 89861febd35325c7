/**
 * Time from POST /v1/sessions/start to a CDP-ready browser (the answer comes once DevTools answers), and of
 * DELETE /v1/sessions/stop, on the real service with the machine's Chromium.
 * Run: node --import tsx test/bench/session-start.ts   Settings: SESSIONS (10).
 */
import { chromium } from 'playwright-core';
import { createClient } from '../../lib/api/client';
import { startService } from '../server/harness';

const rounds = Number(process.env.SESSIONS ?? 10);
const service = await startService();
try {
  const client = createClient({
    baseUrl: service.baseUrl,
    apiKey: await service.createKey('enterprise', 'bench'),
    fetch,
  });
  const profile = await client.createProfile({ name: 'bench' });
  const starts: number[] = [];
  const connects: number[] = [];
  const stops: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let mark = performance.now();
    const session = await client.startSession({ profile_id: profile.id, headless: true });
    starts.push(performance.now() - mark);
    mark = performance.now();
    const browser = await chromium.connectOverCDP(session.cdp_url as string);
    connects.push(performance.now() - mark);
    await browser.close();
    mark = performance.now();
    await client.stopSession({ session_id: session.id });
    stops.push(performance.now() - mark);
  }
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
    return { median: at(0.5), p90: at(0.9), max: at(1) };
  };
  console.log(
    JSON.stringify(
      {
        sessions: rounds,
        start_to_cdp_ready_ms: summary(starts),
        connect_over_cdp_after_ms: summary(connects),
        stop_ms: summary(stops),
      },
      null,
      2,
    ),
  );
} finally {
  await service.close();
}
