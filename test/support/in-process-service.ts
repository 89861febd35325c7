import { rm } from 'node:fs/promises';
import { startService } from '../../server/boot/service';
import { loadConfig } from '../../server/core/config';
import { PRIVATE_UMASK } from '../../server/core/data-dir';
import { createLogger } from '../../server/core/log';
import { createDataDir, keyCreator, serviceEnv, type TestService } from './harness';
import { runKeysInProcess } from './keys-in-process';

/**
 * The real service started in this process, by the start path `npm run service` takes (config from the same
 * environment, `boot/service.ts`'s startService), serving HTTP, WebSockets and the admin socket on a free
 * loopback port. Its JSON log lines go into `logs`; `cli` runs the keys command line in this process, which
 * reaches the service over its admin socket as it would from another process. For what is not about the process
 * itself (signals, exit codes, restarts, stdio): those keep `startService` of harness.ts.
 */
export async function startServiceInProcess(
  options: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<TestService> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await createDataDir());
  const env = serviceEnv(dataDir, options.env);
  const logs: string[] = [];
  // As main.ts does before anything is created.
  process.umask(PRIVATE_UMASK);
  const running = await (async () => {
    const config = loadConfig(env);
    const log = createLogger({ level: config.logLevel, write: (line) => logs.push(line.trimEnd()) });
    return startService(config, log);
  })().catch(async (error: unknown) => {
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  });

  const cli = (args: string[]) => runKeysInProcess(args, env);
  let closing: Promise<void> | undefined;
  return {
    baseUrl: running.url,
    port: running.port,
    dataDir,
    logs,
    cli,
    createKey: keyCreator(cli),
    close() {
      closing ??= (async () => {
        await running.stop();
        if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
