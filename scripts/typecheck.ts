/**
 * `npm run typecheck`: the service's and the extension's TypeScript projects checked at once, one compiler each
 * (a compiler uses one core); each one's errors are printed whole, and any error fails.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/core/config';

const TSC = path.join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
const PROJECTS = ['tsconfig.json', 'tsconfig.extension.json'];

function check(project: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSC, '--noEmit', '-p', project],
      { cwd: PROJECT_ROOT },
      (error, stdout, stderr) => {
        if (error) process.stderr.write(`${project}:\n${stdout}${stderr}\n`);
        resolve(!error);
      },
    );
  });
}

const passed = await Promise.all(PROJECTS.map(check));
if (passed.includes(false)) process.exitCode = 1;
