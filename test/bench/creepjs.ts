/**
 * CreepJS (abrahamjuliot/creepjs, its built page in `docs/`) in a profile's session, with the profile's identity:
 * serves the page on loopback, opens it with the MCP page tools and prints what it says about lies, headless and
 * the like. Its trust score comes from its own server, which a machine without internet does not reach.
 * Run: CREEPJS_DIR=/path/to/creepjs/docs node --import tsx test/bench/creepjs.ts
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { startService } from '../support/harness';
import { call, connect, dataOf, httpTransport, textOf } from '../support/mcp-client';

const folder = process.env.CREEPJS_DIR;
if (!folder) throw new Error('CREEPJS_DIR must name the docs folder of a CreepJS checkout');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};
const WAIT_S = Number(process.env.WAIT_S ?? 25);

const site = createServer(async (req, res) => {
  const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
  try {
    const body = await readFile(join(folder, path.endsWith('/') ? `${path}index.html` : path));
    res.writeHead(200, { 'Content-Type': TYPES[extname(path) || '.html'] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const service = await startService({ env: { EGRESS_ALLOW: 'loopback' } });
const client = await connect(
  httpTransport(service.baseUrl, await service.createKey('enterprise', 'creepjs')),
);
let session_id = '';
try {
  const act = async (tool: string, args: Record<string, unknown>) => {
    const result = await call(client, tool, args);
    if (result.isError) throw new Error(`${tool}: ${textOf(result)}`);
    return result;
  };
  const profile = dataOf(await act('create_profile', { name: 'CreepJS' }));
  session_id = dataOf(await act('start_session', { profile_id: profile.id, headless: true })).id as string;
  await act('browser_navigate', { session_id, url: `${origin}/` });
  await act('browser_wait_for', { session_id, time: WAIT_S });
  const read = await act('browser_evaluate', {
    session_id,
    expression: `(() => {
      const fp = window.Fingerprint ?? {};
      const lines = document.body.innerText.split('\\n').map((line) => line.trim()).filter(Boolean);
      const near = (word) => { const at = lines.findIndex((line) => line.startsWith(word)); return lines.slice(at, at + 4).join(' | '); };
      return {
        sections: Object.keys(fp),
        lies: fp.lies ?? null,
        trash: fp.trash ?? null,
        errors: fp.capturedErrors ?? null,
        headless: near('Headless'),
        canvas: near('Canvas 2d'),
        worker: near('Worker'),
      };
    })()`,
  });
  console.log(`CreepJS at ${origin}/ in a session of profile ${profile.id} (${WAIT_S} s after load):`);
  console.log(textOf(read));
} finally {
  if (session_id) await call(client, 'stop_session', { session_id }).catch(() => undefined);
  await client.close();
  await service.close();
  site.close();
}
