import { readdirSync, readFileSync } from 'node:fs';

/**
 * Pids of live processes (zombies aside) whose environment holds `name=value`: everything a program started,
 * children of children included, since they inherit its environment.
 */
export function processesWithEnvironment(name: string, value: string): number[] {
  const entry = `${name}=${value}`;
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        return state !== 'Z' && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
      } catch {
        return false;
      }
    })
    .map(Number);
}
