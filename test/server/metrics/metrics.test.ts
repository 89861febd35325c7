import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { processesWithUserDataDir } from '../../support/browser-fixtures';
import { requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

const TOKEN = 'metrics-token-for-tests';
let service: TestService;
let api: ApiClient;
let request: ReturnType<typeof requester>;
let collector: Server;
const exported: string[] = [];

async function scrape(): Promise<string> {
  const response = await fetch(`${service.baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

function value(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  // An OTLP/HTTP collector in this process: what the exporter posts is kept as text.
  collector = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      exported.push(`${request.url} ${body}`);
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  service = await startServiceInProcess({
    env: { METRICS_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
  });
  const key = await service.createKey('free');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  request = requester(service.baseUrl, key);
});
afterAll(async () => {
  await service?.close();
  collector?.close();
});

describe('/metrics', () => {
  it('refuses a missing or wrong token with a sentence, and never echoes it', async () => {
    for (const headers of [
      {},
      { Authorization: 'Bearer wrong-token' },
      { Authorization: `Bearer ${TOKEN}x` },
    ] as Record<string, string>[]) {
      const response = await fetch(`${service.baseUrl}/metrics`, { headers });
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'unauthorized', detail: expect.stringMatching(/METRICS_TOKEN/) });
      expect(JSON.stringify(body)).not.toContain('wrong-token');
    }
  });

  it('times requests by route pattern and status, never by raw path', async () => {
    await api.getProfile('prof_doesnotexist').catch(() => {});
    const text = await scrape();
    expect(text).toMatch(
      /profile_pilot_http_request_duration_seconds_count\{method="GET",route="\/v1\/profiles\/:id",status="404"\} 1/,
    );
    expect(text).not.toContain('prof_doesnotexist');
  });

  it('counts a session from start to crash: its state, start time, DevTools bytes and the crash', async () => {
    const profile = await api.createProfile({ name: 'Measured' });
    // The counters are the process's: other services of the test's process may have started sessions before.
    const startsBefore = value(await scrape(), 'profile_pilot_session_start_seconds_count') || 0;
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    let text = await scrape();
    expect(value(text, 'profile_pilot_sessions{state="running"}')).toBe(1);
    expect(value(text, 'profile_pilot_session_start_seconds_count')).toBe(startsBefore + 1);
    expect(value(text, 'profile_pilot_runs{state="queued"}')).toBe(0);

    const devtools = new WebSocket(session.cdp_url as string);
    await new Promise((resolve) => devtools.once('open', resolve));
    devtools.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
    await new Promise((resolve) => devtools.once('message', resolve));
    devtools.close();
    text = await scrape();
    expect(value(text, 'profile_pilot_relay_bytes_total{direction="to_browser"}')).toBeGreaterThan(20);
    expect(value(text, 'profile_pilot_relay_bytes_total{direction="to_client"}')).toBeGreaterThan(50);

    const crashesBefore = value(text, 'profile_pilot_browser_crashes_total');
    for (const pid of processesWithUserDataDir(path.join(service.dataDir, 'profiles', profile.id)))
      process.kill(pid, 'SIGKILL');
    await vi.waitFor(async () => expect((await api.getSession(session.id)).status).toBe('stopped'), {
      timeout: 15_000,
      interval: 100,
    });
    text = await scrape();
    expect(value(text, 'profile_pilot_browser_crashes_total')).toBe(crashesBefore + 1);
    expect(value(text, 'profile_pilot_sessions{state="running"}')).toBe(0);
  });

  it('counts the requests refused for the hourly quota', async () => {
    const before = value(await scrape(), 'profile_pilot_quota_refusals_total');
    let status = 200;
    while (status !== 429) status = (await request('GET', '/v1/account')).status;
    expect(value(await scrape(), 'profile_pilot_quota_refusals_total')).toBe(before + 1);
  });
});

describe('traces', () => {
  it('sends a span per request, named by its route, to the OTLP endpoint', async () => {
    await api.getProfile('prof_traced').catch(() => {});
    await service.close();
    const traces = exported.filter((text) => text.startsWith('/v1/traces '));
    expect(traces.join('\n')).toContain('GET /v1/profiles/:id');
  });
});
