import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_MESSAGES, MCP_REQUESTS_PER_MINUTE } from '../../../server/mcp/mcp-door';
import { serviceSuite } from '../../support/service-suite';

/*
 * The MCP endpoint as an attacker uses it: messages the hourly limit does not count (tools/list, ping) in large
 * batches, from an account already over its limit, while another account works. The refused account is turned
 * away before its body is read, a batch is short, and every account has a minute's budget of requests.
 */

const suite = serviceSuite({ plan: 'enterprise' });

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function postMcp(key: string, body: unknown): Promise<Response> {
  return fetch(`${suite.service.baseUrl}/v1/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
}

const batch = (size: number, method: string) =>
  Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method }));

/** The median time of `count` requests of another account's GET /v1/account, one after the other. */
async function accountP50(key: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let done = 0; done < count; done++) {
    const started = performance.now();
    const response = await fetch(`${suite.service.baseUrl}/v1/account`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

/**
 * Another account's GET /v1/account p50 while 4 loops send `request` as fast as they are answered; the statuses
 * and the largest answer they got.
 */
async function p50UnderFlood(
  otherKey: string,
  request: () => Promise<Response>,
): Promise<{ p50: number; statuses: number[]; largest: number }> {
  let flooding = true;
  const statuses = new Set<number>();
  let largest = 0;
  const loop = async () => {
    while (flooding) {
      const response = await request();
      largest = Math.max(largest, (await response.arrayBuffer()).byteLength);
      statuses.add(response.status);
    }
  };
  const loops = Array.from({ length: 4 }, loop);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const p50 = await accountP50(otherKey, 40);
  flooding = false;
  await Promise.all(loops);
  return { p50, statuses: [...statuses], largest };
}

describe('MCP requests an account does not pay for', () => {
  it('an account over its hourly limit sending 100-message tools/list batches is turned away cheaply, and another account’s p50 holds', async () => {
    const [refusedKey, otherKey] = await Promise.all([
      suite.service.createKey('free'),
      suite.service.createKey('enterprise'),
    ]);
    const refusedAccount = () =>
      fetch(`${suite.service.baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${refusedKey}` } });
    let status = 0;
    while (status !== 429) {
      const response = await refusedAccount();
      await response.arrayBuffer();
      status = response.status;
    }
    await accountP50(otherKey, 10);
    // The baseline: the same account's plain requests, refused as every refused request is. Three rounds of each,
    // interleaved, and the quickest of each compared: the machine is shared, and another process's burst only
    // ever adds time, to one round, not to all three.
    const baselines: Awaited<ReturnType<typeof p50UnderFlood>>[] = [];
    const attacks: typeof baselines = [];
    for (let round = 0; round < 3; round++) {
      baselines.push(await p50UnderFlood(otherKey, refusedAccount));
      attacks.push(await p50UnderFlood(otherKey, () => postMcp(refusedKey, batch(100, 'tools/list'))));
    }

    expect(new Set(baselines.flatMap((round) => round.statuses))).toEqual(new Set([429]));
    expect(new Set(attacks.flatMap((round) => round.statuses))).toEqual(new Set([429]));
    expect(Math.max(...attacks.map((round) => round.largest))).toBeLessThan(2048);
    const quickest = (rounds: typeof baselines) => Math.min(...rounds.map((round) => round.p50));
    const p50s = (rounds: typeof baselines) => rounds.map((round) => round.p50.toFixed(1)).join(', ');
    // The attack used to make it a hundred times slower.
    expect(
      quickest(attacks),
      `p50s under attack ${p50s(attacks)} ms, baseline ${p50s(baselines)} ms`,
    ).toBeLessThan(quickest(baselines) * 1.5 + 10);
  }, 60_000);

  it(`refuses a batch of more than ${MAX_BATCH_MESSAGES} messages with a sentence, and answers one of ${MAX_BATCH_MESSAGES}`, async () => {
    const key = await suite.service.createKey('enterprise');
    const refused = await postMcp(key, batch(MAX_BATCH_MESSAGES + 1, 'ping'));
    expect(refused.status).toBe(413);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(((await refused.json()) as { detail: string }).detail).toBe(
      `The batch holds ${MAX_BATCH_MESSAGES + 1} JSON-RPC messages; one request may hold ${MAX_BATCH_MESSAGES} at most. Send them in smaller batches.`,
    );
    const answered = await postMcp(key, batch(MAX_BATCH_MESSAGES, 'tools/list'));
    expect(answered.status).toBe(200);
    const answers = (await answered.json()) as { result: { tools: { name: string }[] } }[];
    expect(answers).toHaveLength(MAX_BATCH_MESSAGES);
    expect(answers[0]?.result.tools.map((tool) => tool.name)).toContain('browser_snapshot');
    expect(answers[9]).toEqual(answers[0] && { ...answers[0], id: 9 });
  });

  it(`gives every account ${MCP_REQUESTS_PER_MINUTE} requests a minute, counted or not, then 429 with when to retry`, async () => {
    const [key, otherKey] = await Promise.all([
      suite.service.createKey('enterprise'),
      suite.service.createKey('enterprise'),
    ]);
    for (let sent = 0; sent < MCP_REQUESTS_PER_MINUTE; sent++) {
      const response = await postMcp(key, { jsonrpc: '2.0', id: sent, method: 'ping' });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await postMcp(key, { jsonrpc: '2.0', id: 0, method: 'ping' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /^An account may send 300 requests a minute to the MCP endpoint; the next one is possible in \d+ (seconds?|minutes?)\.$/,
    );
    expect((await postMcp(otherKey, { jsonrpc: '2.0', id: 0, method: 'ping' })).status).toBe(200);
    // An agent's tool call over the limit is a tool result it can read: which limit, and when to try again.
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'list_proxies', arguments: {} },
    };
    const toolRefused = await postMcp(key, call);
    expect(toolRefused.status).toBe(200);
    const answer = (await toolRefused.json()) as { id: number; result: CallToolResult };
    expect(answer.id).toBe(7);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(
        /300 requests a minute to the MCP endpoint; the next one is possible in \d+/,
      ),
    });
  }, 60_000);
});
