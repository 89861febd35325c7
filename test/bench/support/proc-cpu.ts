import { readdirSync, readFileSync } from 'node:fs';

// USER_HZ: the unit of /proc/<pid>/stat's CPU times, 100 on every Linux architecture Node runs on.
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  cpuTicks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** The processes `root` and every descendant of it, as now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** CPU seconds (user + system) spent so far by the given process trees, each taken as it is now. */
export function cpuSeconds(roots: readonly number[]): number {
  let ticks = 0;
  for (const root of roots) {
    for (const pid of processTree(root)) ticks += readStat(pid)?.cpuTicks ?? 0;
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds (user + system) spent so far by one process alone, without its children. */
export function ownCpuSeconds(pid: number): number {
  return (readStat(pid)?.cpuTicks ?? 0) / TICKS_PER_SECOND;
}

/**
 * CPU seconds (user + system) spent so far by a process and by its children that have ended and been waited for
 * (theirs in turn included): a service's own and its browsers' that came and went.
 */
export function cpuSecondsWithEnded(pid: number): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
