/**
 * What a session costs the machine (docs/deploy.md's sizing): SESSIONS idle headless sessions on the service, their
 * Chromium processes' proportional memory (PSS) and the CPU they take at rest over 10 s.
 * Run: node --import tsx test/bench/session-sizing.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startService } from '../support/harness';

const SESSIONS = Number(process.env.SESSIONS ?? 4);
const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};
const pids = () =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
const stat = (pid: number) => read(pid, 'stat').split(') ')[1]?.split(' ') ?? [];
const cpuTicks = (group: number[]) =>
  group.reduce((sum, pid) => sum + Number(stat(pid)[11] ?? 0) + Number(stat(pid)[12] ?? 0), 0);
const pssMb = (group: number[]) =>
  group.reduce((sum, pid) => sum + Number(/Pss:\s+(\d+)/.exec(read(pid, 'smaps_rollup'))?.[1] ?? 0), 0) /
  1024;

/** The browsers started on `dataDir` and their helpers (each browser leads its process group). */
function chromiumOf(dataDir: string): number[] {
  const groups = new Set(
    pids()
      .filter((pid) => read(pid, 'cmdline').includes(`--user-data-dir=${dataDir}/`))
      .map((pid) => Number(stat(pid)[2])),
  );
  return pids().filter((pid) => groups.has(Number(stat(pid)[2])));
}

async function main(): Promise<void> {
  const service = await startService({ env: { HEADLESS: 'true' } });
  try {
    const key = await service.createKey('enterprise');
    const send = (method: string, pathname: string, body: unknown) =>
      fetch(`${service.baseUrl}${pathname}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const alone = pssMb([service.pid]);
    for (let n = 0; n < SESSIONS; n++) {
      const profile = await (await send('POST', '/v1/profiles', { name: `Sized ${n}` })).json();
      const started = await send('POST', '/v1/sessions/start', { profile_id: profile.id, headless: true });
      if (started.status !== 201) throw new Error(await started.text());
    }
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const chromium = chromiumOf(service.dataDir);
    const before = cpuTicks(chromium);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const corePerSession = (cpuTicks(chromium) - before) / 100 / 10 / SESSIONS;
    console.log(
      `${SESSIONS} idle sessions: ${chromium.length} Chromium processes, PSS ${pssMb(chromium).toFixed(0)} MB ` +
        `(${(pssMb(chromium) / SESSIONS).toFixed(0)} MB each), ${(corePerSession * 100).toFixed(1)} % of a core each at rest; ` +
        `the service ${alone.toFixed(0)} MB PSS alone, ${pssMb([service.pid]).toFixed(0)} MB with them`,
    );
  } finally {
    await service.close();
  }
}

void main();
