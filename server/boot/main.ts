import { parseArgs } from 'node:util';
import { CONFIG_OPTIONS, type Config, ConfigError, loadConfig } from '../core/config';
import { DataDirAccessError, PRIVATE_UMASK } from '../core/data-dir';
import { DataDirBusyError } from '../core/lock';
import { createLogger } from '../core/log';
import { DatabaseUnreachableError } from '../db/errors';

const USAGE = `Usage: npm run service [-- --port N --host H --data-dir DIR --database-url URL]
       npm run service -- keys create|list|revoke …   (npm run service -- keys help)

Environment: PORT (8787), HOST (127.0.0.1), DATA_DIR (.data), DATABASE_URL, CHROME_PATH, HEADLESS, LOG_LEVEL,
SIGNUP (open; closed turns off sign-up on the dashboard at /dashboard).
Exit codes: 1 a setting or the data dir is wrong, 2 usage, 3 the database did not answer (DATABASE_WAIT).
`;

class UsageError extends Error {}

/** No arguments: serve in the foreground until SIGINT/SIGTERM. `keys …`: the keys command line. */
async function main(argv: string[]): Promise<number> {
  // Before anything is created: the database, browser profiles, sockets and Chromium's files stay private.
  process.umask(PRIVATE_UMASK);
  if (argv[0] === 'keys') {
    const { runKeysCli } = await import('./cli');
    return runKeysCli(argv.slice(1), process.env, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    });
  }
  const { values, positionals } = (() => {
    try {
      return parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ...CONFIG_OPTIONS, help: { type: 'boolean' } },
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  })();
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals[0] !== undefined) throw new UsageError(`Unknown command: ${positionals[0]}`);
  return serve(loadConfig(process.env, values));
}

async function serve(config: Config): Promise<number> {
  const log = createLogger({ level: config.logLevel });
  const { startService } = await import('./service');
  const service = await startService(config, log);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  log.info('signal received', { signal });
  await service.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (error instanceof DatabaseUnreachableError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(3);
    }
    // Mistakes of the operator are sentences; anything else is a logged error with its stack.
    if (
      error instanceof ConfigError ||
      error instanceof DataDirBusyError ||
      error instanceof DataDirAccessError
    )
      process.stderr.write(`${error.message}\n`);
    else createLogger({}).error('the service could not start', { error });
    process.exit(1);
  },
);
