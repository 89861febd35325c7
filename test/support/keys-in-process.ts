import { runKeysCli } from '../../server/boot/cli';
import type { CliResult } from './harness';

/**
 * `keys …` of the service's command line run in this process, with its output collected: it takes the data dir
 * when it is free, or asks the service holding it over its admin socket, as the command does from a shell.
 */
export async function runKeysInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  if (args[0] !== 'keys') throw new Error(`only keys commands run in this process, not ${args[0]}`);
  let stdout = '';
  let stderr = '';
  const code = await runKeysCli(args.slice(1), env, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
