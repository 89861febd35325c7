/**
 * `npm run mcp` with a malformed PROFILE_PILOT_KEY, tried as the attack: a key with a line break in it was sent
 * whole back to the MCP client and to stderr in fetch's "invalid header value". The relay checks the key's shape
 * at start and refuses it with a sentence that never holds it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../server/core/config';
import { type CliResult, outputOf } from '../../support/harness';

const SECRET = 'Zq7vK2mW9xR4tY8uP3nB6cD1fG5hJ0sL';

/** Runs the relay with `key`, sends it an initialize request, and resolves with all it wrote and its exit code. */
function runRelay(key: string): Promise<CliResult> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'mcp', 'stdio.ts'), '--url', 'http://127.0.0.1:9'],
    { cwd: PROJECT_ROOT, env: { ...process.env, PROFILE_PILOT_KEY: key }, stdio: 'pipe' },
  );
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  };
  child.stdin.on('error', () => {});
  child.stdin.write(`${JSON.stringify(initialize)}\n`);
  // A relay that took the key answers the request and keeps running: give it time to, then end it.
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return outputOf(child).finally(() => clearTimeout(timer));
}

it('refuses a key with a line break at start, and never writes the key', { timeout: 60_000 }, async () => {
  for (const key of [
    `pp_live_${SECRET}\r\nX-Injected: 1`,
    `pp_live_${SECRET.slice(0, 10)}\n${SECRET.slice(10)}`,
  ]) {
    const { code, stdout, stderr } = await runRelay(key);
    expect({
      code,
      stdout: stdout.includes(SECRET.slice(0, 10)),
      stderr: stderr.includes(SECRET.slice(0, 10)),
    }).toEqual({ code: 2, stdout: false, stderr: false });
    expect(stderr).toMatch(/PROFILE_PILOT_KEY is not an API key/);
  }
});
