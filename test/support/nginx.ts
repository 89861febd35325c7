import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

const NGINX = '/usr/sbin/nginx';

/** Debian's nginx, or null (said out loud) outside CI: in CI a missing nginx fails the run. */
export function nginxForTests(): string | null {
  if (existsSync(NGINX)) return NGINX;
  const missing = 'nginx is not installed (apt-get install nginx-light): the load balancer test';
  if (process.env.CI === 'true') throw new Error(`${missing} cannot run, and CI requires it.`);
  console.warn(`${missing} is skipped.`);
  return null;
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/**
 * Runs `docs/cluster/nginx.conf` as shipped, with only its addresses changed: its upstream lists `backends` and
 * it listens on a free loopback port. Everything nginx writes stays in a temp dir.
 */
export async function startNginx(binary: string, backends: string[], port?: number): Promise<Nginx> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pp-nginx-'));
  port ??= await freePort();
  const shipped = await readFile(new URL('../../docs/cluster/nginx.conf', import.meta.url), 'utf8');
  const servers = backends.map((backend) => `    server ${backend} max_fails=2 fail_timeout=10s;`).join('\n');
  const site = shipped
    .replace(/( {4}server [\d.]+:\d+ [^\n]*\n)+/, `${servers}\n`)
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  await writeFile(path.join(dir, 'site.conf'), site);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  await writeFile(
    path.join(dir, 'nginx.conf'),
    `daemon off;
user root;
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log stderr warn;
events {}
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  include ${path.join(dir, 'site.conf')};
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, path.join(dir, 'nginx.pid'), child, () => errors);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for nginx to answer. nginx writes its pid file once it listens: before that, or once it exited (the port was
 * taken meanwhile), whatever answers on the port is another server.
 */
async function waitForPort(
  port: number,
  pidFile: string,
  child: ChildProcess,
  errors: () => string,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok =
      existsSync(pidFile) &&
      (await fetch(`http://127.0.0.1:${port}/healthz`).then(
        () => true,
        () => false,
      ));
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not start: ${errors()}`);
}
