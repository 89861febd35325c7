import { parseArgs } from 'node:util';
import { Plan } from '../../lib/api/schemas/account';
import { AdminUnavailableError, askAdmin } from '../admin/channel';
import { type KeysCommand, runKeysCommand, signInLinkUrl } from '../admin/commands';
import { systemClock } from '../core/clock';
import { CONFIG_OPTIONS, type Config, type ConfigFlags, loadConfig } from '../core/config';
import { adminSocketPath } from '../core/data-dir';
import { acquireDataDirLock, DataDirBusyError } from '../core/lock';
import { migrate } from '../db/migrate';
import { openDatabase } from '../db/open';
import type { CreatedKey, KeyListing } from '../store/accounts';

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `Usage: npm run service -- keys <command>

  keys create --plan free|premium|enterprise [--name NAME]
      Creates an account with that plan and prints its new API key (only the key, on stdout). Shown once.
  keys list [--json]
      Lists the keys: prefix, name, plan, created, revoked.
  keys revoke PREFIX
      Revokes the key with that prefix (as shown by list, e.g. pp_live_AbCd).
  keys set-plan ACCOUNT --plan free|premium|enterprise
      Moves an account to that plan; ACCOUNT is its id (acc_…), its email, or one of its keys' prefixes.
  keys sign-in-link ACCOUNT [--url BASE]
      Prints a link that signs a browser in to the account's dashboard: once, within 15 minutes. For accounts
      without a password too (the local one npm start makes). ACCOUNT as for set-plan; BASE, the service's
      address, defaults to PUBLIC_URL, else HOST and PORT.

Works whether or not the service is running on the data dir (DATA_DIR, or --data-dir DIR).
`;

/** `keys …`: returns the process exit code (0 done, 1 failed, 2 usage). */
export async function runKeysCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  let parsed: ReturnType<typeof parseKeysArgs>;
  let config: Config;
  try {
    parsed = parseKeysArgs(args);
    config = loadConfig(env, parsed === 'help' ? {} : parsed.flags);
  } catch (error) {
    out.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === 'help') {
    out.stdout(USAGE);
    return 0;
  }
  try {
    const result = await execute(config, parsed.command);
    return report(parsed.command, result, { json: parsed.json, config, url: parsed.url }, out);
  } catch (error) {
    out.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function parseKeysArgs(
  args: string[],
): { command: KeysCommand; json: boolean; flags: ConfigFlags; url?: string | undefined } | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONFIG_OPTIONS,
      plan: { type: 'string' },
      name: { type: 'string' },
      url: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [subcommand, ...rest] = positionals;
  if (values.help || subcommand === undefined || subcommand === 'help') return 'help';
  const options = { json: values.json ?? false, flags: values };
  const plan = Plan.options.find((option) => option === values.plan);
  if (subcommand === 'create') {
    if (!plan) throw new Error(`keys create needs --plan ${Plan.options.join('|')}`);
    return { command: { command: 'create', plan, name: values.name }, ...options };
  }
  if (subcommand === 'set-plan') {
    if (!plan || rest.length !== 1 || !rest[0])
      throw new Error(`keys set-plan needs an account and --plan ${Plan.options.join('|')}`);
    return { command: { command: 'set-plan', account: rest[0], plan }, ...options };
  }
  if (subcommand === 'list' && rest.length === 0) return { command: { command: 'list' }, ...options };
  if (subcommand === 'sign-in-link' && rest.length === 1 && rest[0])
    return { command: { command: 'sign-in-link', account: rest[0] }, ...options, url: values.url };
  if (subcommand === 'revoke' && rest.length === 1 && rest[0]) {
    return { command: { command: 'revoke', prefix: rest[0] }, ...options };
  }
  throw new Error(
    subcommand === 'revoke' ? 'keys revoke needs the key prefix' : `Unknown command: keys ${subcommand}`,
  );
}

/**
 * Runs the command on the database directly when the data dir is free, or hands it to the running service
 * over its admin socket (PGlite must not be opened by two processes).
 */
async function execute(config: Config, command: KeysCommand): Promise<unknown> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const lock = acquireDataDirLock(config.dataDir, 'cli');
      try {
        const db = await openDatabase(config);
        try {
          await migrate(db);
          return await runKeysCommand(db, systemClock, command);
        } finally {
          await db.close();
        }
      } finally {
        lock.release();
      }
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      if (error.holder.role === 'service') {
        try {
          return await askAdmin(adminSocketPath(config.dataDir), command);
        } catch (askError) {
          // The service is still starting and has not opened its socket yet.
          if (!(askError instanceof AdminUnavailableError)) throw askError;
        }
      }
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function report(
  command: KeysCommand,
  result: unknown,
  { json, config, url }: { json: boolean; config: Config; url?: string | undefined },
  out: CliOutput,
): number {
  if (command.command === 'sign-in-link')
    return reportLink(command.account, result, url ?? baseOf(config), out);
  if (command.command === 'create') {
    const created = result as CreatedKey;
    out.stdout(`${created.key}\n`);
    out.stderr(
      `Created the ${created.plan} account "${created.name}" (${created.account_id}) with key ${created.prefix}…\n` +
        'This is the only time the key is shown: store it now.\n',
    );
    return 0;
  }
  if (command.command === 'list') {
    const keys = result as KeyListing[];
    out.stdout(json ? `${JSON.stringify(keys, null, 2)}\n` : formatTable(keys));
    return 0;
  }
  if (command.command === 'set-plan') {
    const { account_id } = result as { account_id: string | null };
    if (account_id) {
      out.stderr(`The account ${account_id} is now on the ${command.plan} plan.\n`);
      return 0;
    }
    out.stderr(noSuchAccount(command.account));
    return 1;
  }
  if ((result as { revoked: boolean }).revoked) {
    out.stderr(`Revoked the key ${command.prefix}.\n`);
    return 0;
  }
  out.stderr(`There is no key with the prefix ${command.prefix}; see keys list.\n`);
  return 1;
}

/** Where the service is reached, as far as its configuration says. */
function baseOf(config: Config): string {
  const { host, port, publicUrls } = config;
  const named = host === '0.0.0.0' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return publicUrls[0] ?? `http://${named}:${port}`;
}

const noSuchAccount = (account: string) =>
  `No account has the id, email or key prefix ${account}; see keys list.\n`;

/** The link on stdout, alone; what it is for on stderr. */
function reportLink(account: string, result: unknown, base: string, out: CliOutput): number {
  const { token, expires_at } = result as { token: string | null; expires_at?: string };
  if (!token) {
    out.stderr(noSuchAccount(account));
    return 1;
  }
  out.stdout(`${signInLinkUrl(base, token)}\n`);
  out.stderr(`It signs in once, until ${expires_at}; keep it to yourself until then.\n`);
  return 0;
}

function formatTable(keys: KeyListing[]): string {
  if (keys.length === 0) return 'No keys yet: npm run service -- keys create --plan free\n';
  const rows = [
    ['PREFIX', 'NAME', 'PLAN', 'CREATED', 'REVOKED'],
    ...keys.map((key) => [key.prefix, key.name, key.plan, key.created_at, key.revoked_at ?? '-']),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map(
      (row) =>
        `${row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
