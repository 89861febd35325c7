import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import autocannon from 'autocannon';

const dataDir = mkdtempSync('/tmp/exp/pd-');
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '18777',
  LOG_LEVEL: 'info',
  ...(process.env.PROF_DB ? { DATABASE_URL: process.env.PROF_DB } : {}),
};
const start = async (flags: string[]) => {
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (d) => {
      if (String(d).includes('"listening"')) resolve();
    }),
  );
  return child;
};
let child = await start([]);
const key = execFileSync(
  process.execPath,
  ['--import', 'tsx', 'server/main.ts', 'keys', 'create', '--plan', 'enterprise'],
  { env },
)
  .toString()
  .trim();
const base = 'http://127.0.0.1:18777';
const h = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
for (let i = 0; i < 1000; i++)
  await fetch(`${base}/v1/profiles`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ name: `Scale ${i}`, tags: ['t'], proxy: 'http://u:p@proxy.example:8080' }),
  });
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
child = await start(['--cpu-prof', '--cpu-prof-dir=/tmp/exp/prof']);
await autocannon({ url: `${base}/v1/profiles?limit=50`, headers: h, connections: 10, duration: 2 });
const r = await autocannon({ url: `${base}/v1/profiles?limit=50`, headers: h, connections: 10, duration: 8 });
console.log('list rps', r.requests.average);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
