/**
 * CreepJS (abrahamjuliot/creepjs, its built page in `docs/`) side by side: raw Chromium (the same binary launched by
 * Playwright, no identity) and a profile's session (the service's launch, with the profile's identity). Serves the
 * page on loopback, opens it in each, and prints their lies next to each other, then trash, headless and the like.
 * Its trust score comes from its own server, which a machine without internet does not reach.
 * Run: CREEPJS_DIR=/path/to/creepjs/docs node --import tsx test/bench/creepjs.ts
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { findChrome } from '../../server/browser/find-chrome';
import { startService } from '../support/harness';
import { call, connect, dataOf, httpTransport, textOf } from '../support/mcp-client';

const folder = process.env.CREEPJS_DIR;
if (!folder) throw new Error('CREEPJS_DIR must name the docs folder of a CreepJS checkout');
const chromePath = process.env.CHROME_PATH || findChrome();
if (!chromePath) throw new Error('no Chromium found: set CHROME_PATH');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};
const WAIT_S = Number(process.env.WAIT_S ?? 25);
/** What CreepJS found, read from its page once it has run. */
const READ = `(() => {
  const fp = window.Fingerprint ?? {};
  const lines = document.body.innerText.split('\\n').map((line) => line.trim()).filter(Boolean);
  const near = (word) => { const at = lines.findIndex((line) => line.startsWith(word)); return lines.slice(at, at + 4).join(' | '); };
  return {
    lies: Object.entries(fp.lies?.data ?? {}).flatMap(([name, kinds]) => kinds.map((kind) => name + ': ' + kind)),
    trash: (fp.trash?.trashBin ?? []).map(({ name, value }) => name + ': ' + JSON.stringify(value)),
    errors: (fp.capturedErrors?.data ?? []).map((error) => JSON.stringify(error)),
    headless: near('Headless'),
    canvas: near('Canvas 2d'),
    worker: near('Worker'),
  };
})()`;
type Reading = Record<'lies' | 'trash' | 'errors', string[]> &
  Record<'headless' | 'canvas' | 'worker', string>;

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

async function rawChromium(): Promise<Reading> {
  const browser = await chromium.launch({ executablePath: chromePath as string, headless: true });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForTimeout(WAIT_S * 1000);
    return (await page.evaluate(READ)) as Reading;
  } finally {
    await browser.close();
  }
}

async function profileSession(): Promise<Reading> {
  const service = await startService({ env: { EGRESS_ALLOW: 'loopback' } });
  const client = await connect(
    httpTransport(service.baseUrl, await service.createKey('enterprise', 'creepjs')),
  );
  let session_id = '';
  const act = async (tool: string, args: Record<string, unknown>) => {
    const result = await call(client, tool, args);
    if (result.isError) throw new Error(`${tool}: ${textOf(result)}`);
    return result;
  };
  try {
    const profile = dataOf(await act('create_profile', { name: 'CreepJS' }));
    session_id = dataOf(await act('start_session', { profile_id: profile.id, headless: true })).id as string;
    await act('browser_navigate', { session_id, url: `${origin}/` });
    // browser_wait_for waits at most 20 s a call.
    for (let left = WAIT_S; left > 0; left -= 20)
      await act('browser_wait_for', { session_id, time: Math.min(20, left) });
    return JSON.parse(textOf(await act('browser_evaluate', { session_id, expression: READ }))) as Reading;
  } finally {
    if (session_id) await call(client, 'stop_session', { session_id }).catch(() => undefined);
    await client.close();
    await service.close();
  }
}

try {
  const raw = await rawChromium();
  const profile = await profileSession();
  console.log(`CreepJS at ${origin}/, ${WAIT_S} s after load, headless, ${chromePath}:`);
  for (const key of ['lies', 'trash', 'errors'] as const) {
    console.log(`${key}: raw Chromium ${raw[key].length}, profile ${profile[key].length}`);
    const rows = Math.max(raw[key].length, profile[key].length);
    for (let row = 0; row < rows; row += 1)
      console.log(`  raw: ${raw[key][row] ?? '-'}\n  profile: ${profile[key][row] ?? '-'}`);
  }
  for (const key of ['headless', 'canvas', 'worker'] as const)
    console.log(`${key}:\n  raw: ${raw[key]}\n  profile: ${profile[key]}`);
} finally {
  site.close();
}
