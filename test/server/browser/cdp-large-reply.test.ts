import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serviceSuite } from '../../support/service-suite';

// A process of its own: this one receives the 40 MB, and the service's event loop is what is measured.
const suite = serviceSuite({ plan: 'enterprise', process: true });

/**
 * Times GET /healthz back to back from another process (this one is busy receiving the large reply) until
 * `stop` resolves; answers the slowest answer's milliseconds.
 */
function timeHealthz(baseUrl: string, stop: Promise<unknown>): Promise<{ slowestMs: number; count: number }> {
  const poller = spawn(
    process.execPath,
    [
      '-e',
      `let slowest = 0, count = 0, going = true;
       process.stdin.on('data', () => { going = false; });
       (async () => {
         while (going) {
           const start = performance.now();
           await (await fetch(process.argv[1] + '/healthz')).text();
           slowest = Math.max(slowest, performance.now() - start);
           count += 1;
           await new Promise((resolve) => setTimeout(resolve, 5));
         }
         console.log(JSON.stringify({ slowestMs: Math.round(slowest), count }));
         process.exit(0);
       })();`,
      baseUrl,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  poller.stdout.on('data', (chunk) => {
    out += chunk;
  });
  void stop.finally(() => poller.stdin.write('stop\n'));
  return new Promise((resolve) => poller.on('exit', () => resolve(JSON.parse(out))));
}

describe('a large DevTools reply', () => {
  // A stall of the service's event loop shows in every try; a slow answer of a busy shared machine (380 ms on one
  // full run, under 300 ms alone) in one only. The limit grows with the slowest answer of an idle window as long, so
  // that a loaded machine is measured against itself.
  it("passes 40 MB whole over the account's own cdp_url while /healthz answers as fast as when idle", {
    retry: 2,
    timeout: 120_000,
  }, async () => {
    const profile = await suite.api.createProfile({ name: 'Large reply' });
    const session = await suite.api.startSession({ profile_id: profile.id });
    const socket = new WebSocket(session.cdp_url as string, { maxPayload: 256 * 2 ** 20 });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const replies = new Map<number, (data: Buffer) => void>();
    socket.on('message', (data: Buffer) => {
      // The id is at the start: the 40 MB reply is not parsed here, so this process stays free.
      const id = Number(/^\{"id":(\d+)/.exec(data.subarray(0, 32).toString())?.[1]);
      replies.get(id)?.(data);
    });
    let lastId = 0;
    const command = (method: string, params: object, sessionId?: string) =>
      new Promise<Buffer>((resolve) => {
        lastId += 1;
        replies.set(lastId, resolve);
        socket.send(JSON.stringify({ id: lastId, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const parsed = async (reply: Promise<Buffer>) => JSON.parse((await reply).toString());
    const { result: targets } = await parsed(command('Target.getTargets', {}));
    const page = targets.targetInfos.find((target: { type: string }) => target.type === 'page');
    const { result: attached } = await parsed(
      command('Target.attachToTarget', { targetId: page.targetId, flatten: true }),
    );

    const large = command(
      'Runtime.evaluate',
      { expression: "'x'.repeat(40 * 2 ** 20)", returnByValue: true },
      attached.sessionId,
    );
    const startedAt = performance.now();
    const timing = timeHealthz(suite.service.baseUrl, large);
    const reply = await large;
    const { slowestMs, count } = await timing;
    const idle = await timeHealthz(suite.service.baseUrl, sleep(performance.now() - startedAt));
    console.log(
      `40 MB reply: ${reply.length} bytes; /healthz slowest ${slowestMs} ms over ${count} requests, ` +
        `${idle.slowestMs} ms over ${idle.count} when idle`,
    );
    expect(reply.length).toBeGreaterThan(40 * 2 ** 20);
    expect(reply.subarray(-64).toString()).toMatch(/x"\}\},"sessionId":"\w+"\}$/);
    // The transfer itself loads the machine: 806 ms against 278 ms idle on a loaded run; a 2 s stall put in the relay
    // gave 2737, 2740 and 2696 ms against 309, 547 and 535 ms idle.
    expect(slowestMs).toBeLessThan(Math.max(300, 4 * idle.slowestMs));
    socket.close();
    await suite.api.stopSession({ session_id: session.id });
  });
});
