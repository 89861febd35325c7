/**
 * npm run deploy:local: builds both images and runs deploy/kube/local on this machine under `podman kube play`,
 * published on http://127.0.0.1:18787. `npm run deploy:local -- down` takes it down (`--volumes` also removes
 * PostgreSQL's volume). npm run test:deploy runs the same two commands.
 *
 * On podman 4.4 and later it is `kubectl kustomize deploy/kube/local | podman kube play -`. Podman 4.3 stores a
 * Secret given in YAML (in the same file or one of its own) as YAML, and its env lookup then fails with "secret …
 * is not valid JSON" (podman#16269, fixed in 4.4): there each Secret is made a podman secret first, as the JSON of
 * its base64 values that 4.3 reads, and the rest is played.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { PROJECT_ROOT } from '../server/core/config';

interface KubeObject {
  kind: string;
  metadata: { name: string };
  stringData?: Record<string, string>;
}

const env = {
  ...process.env,
  CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? path.join(PROJECT_ROOT, 'deploy/podman/containers.conf'),
};

function run(
  command: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
) {
  const result = spawnSync(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...env, ...options.env },
    input: options.input,
    stdio: [options.input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

function podmanStoresSecretsAsYaml(): boolean {
  const version = execFileSync('podman', ['version', '--format', '{{.Client.Version}}'], { env }).toString();
  const [major = 0, minor = 0] = version.trim().split('.').map(Number);
  return major < 4 || (major === 4 && minor < 4);
}

const yamlOf = (objects: KubeObject[]) => objects.map((object) => stringify(object)).join('---\n');

function createPodmanSecret(secret: KubeObject): void {
  spawnSync('podman', ['secret', 'rm', secret.metadata.name], { env, stdio: 'ignore' });
  const data = Object.fromEntries(
    Object.entries(secret.stringData ?? {}).map(([name, value]) => [
      name,
      Buffer.from(value).toString('base64'),
    ]),
  );
  const folder = mkdtempSync(path.join(tmpdir(), 'pp-secret-'));
  const file = path.join(folder, 'secret.json');
  writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
  try {
    run('podman', ['secret', 'create', secret.metadata.name, file]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function up(objects: KubeObject[]): void {
  if (spawnSync('podman', ['--version']).status !== 0)
    throw new Error('npm run deploy:local needs podman (apt-get install podman runc) for podman kube play.');
  run('sh', ['scripts/image.sh']);
  run('sh', ['scripts/image.sh'], {
    env: {
      CONTAINERFILE: 'deploy/kube/local/postgres.Containerfile',
      IMAGE: 'localhost/profile-pilot-postgres:latest',
    },
  });
  // A claim whose volume is there from an earlier play keeps it (podman 4.3 refuses to play it again).
  const played = objects.filter(
    (object) =>
      object.kind !== 'PersistentVolumeClaim' ||
      spawnSync('podman', ['volume', 'exists', object.metadata.name], { env }).status !== 0,
  );
  if (!podmanStoresSecretsAsYaml()) {
    run('podman', ['kube', 'play', '--replace', '-'], { input: yamlOf(played) });
  } else {
    const secrets = played.filter((object) => object.kind === 'Secret');
    for (const secret of secrets) createPodmanSecret(secret);
    run('podman', ['kube', 'play', '--replace', '-'], {
      input: yamlOf(played.filter((object) => object.kind !== 'Secret')),
    });
  }
  console.log(
    'deploy/kube/local is playing: http://127.0.0.1:18787 (npm run deploy:local -- down to stop it)',
  );
}

function down(objects: KubeObject[], volumes: boolean): void {
  spawnSync('podman', ['kube', 'down', '-'], {
    env,
    input: yamlOf(objects.filter((object) => object.kind !== 'Secret')),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  // `podman secret rm` takes no --force on 4.3: with it the secret was left behind.
  for (const object of objects) {
    if (object.kind === 'Secret')
      spawnSync('podman', ['secret', 'rm', object.metadata.name], { env, stdio: 'ignore' });
    if (volumes && object.kind === 'PersistentVolumeClaim')
      spawnSync('podman', ['volume', 'rm', '--force', object.metadata.name], { env, stdio: 'ignore' });
  }
}

const rendered = execFileSync('kubectl', ['kustomize', 'deploy/kube/local'], {
  cwd: PROJECT_ROOT,
}).toString();
const objects = parseAllDocuments(rendered).map((document) => document.toJS() as KubeObject);
const [command, option] = process.argv.slice(2);
try {
  if (command === 'down') down(objects, option === '--volumes');
  else if (command === undefined) up(objects);
  else throw new Error(`usage: npm run deploy:local [-- down [--volumes]], not "${command}"`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
