import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The arguments a live process was started with; null when it is gone (a zombie has none left). */
export function readCommandLine(pid: number): string[] | null {
  try {
    return parseCommandLine(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return null;
  }
}

function parseCommandLine(raw: string): string[] | null {
  return raw === '' ? null : raw.split('\0').filter(Boolean);
}

/** The one spelling of a folder that every launch and check uses, so that symlinks or `..` cannot hide a match. */
export function canonicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function userDataDirArgument(userDataDir: string): string {
  return `--user-data-dir=${userDataDir}`;
}

const isPid = (entry: string) => /^\d+$/.test(entry);

/**
 * Pids of every live process (the browser and its helpers) started with this user-data directory. Read without
 * holding up the service: on a busy node the scan took up to 160 ms at each launch.
 */
export async function processesUsingUserDataDir(userDataDir: string): Promise<number[]> {
  const argument = userDataDirArgument(userDataDir);
  const pids = (await readdir('/proc')).filter(isPid).map(Number);
  const commandLines = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').then(parseCommandLine, () => null)),
  );
  return pids.filter((_, index) => commandLines[index]?.includes(argument));
}

/**
 * Pids of the group's processes that still run, read without holding up the service (a browser's stop asks every
 * 25 ms, and a scan took up to 12 ms here). Zombies do not count: init reaps orphaned ones only every 1.5 s or so
 * here, and they hold nothing.
 */
export async function liveGroupMembers(groupId: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter(isPid).map(Number);
  const stats = await Promise.all(
    pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(statOf, () => null)),
  );
  return pids.filter((_, index) => isLiveMember(stats[index] ?? null, groupId));
}

/**
 * The same, read at once, for a session's relay (it runs on the relay worker threads, not the service's main
 * thread): a connection waiting on a scan counts as unproven, and a flood of unproven ones evicts the oldest first.
 */
export function liveGroupMembersNow(groupId: number): number[] {
  const pids = readdirSync('/proc').filter(isPid).map(Number);
  return pids.filter((pid) => isLiveMember(readStat(pid), groupId));
}

function isLiveMember(stat: { state: string; processGroup: number } | null, groupId: number): boolean {
  return stat !== null && stat.processGroup === groupId && stat.state !== 'Z';
}

export function processGroupOf(pid: number): number | null {
  return readStat(pid)?.processGroup ?? null;
}

function readStat(pid: number): { state: string; processGroup: number } | null {
  const fields = statFields(pid);
  return fields === null ? null : groupFields(fields);
}

function statOf(text: string): { state: string; processGroup: number } {
  return groupFields(fieldsOf(text));
}

function groupFields(fields: string[]): { state: string; processGroup: number } {
  const [state = '', , processGroup] = fields;
  return { state, processGroup: Number(processGroup) };
}

export interface Scheduling {
  nice: number;
  /** 1 to 99 under a real-time policy, else 0. */
  realTimePriority: number;
  /** SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, SCHED_BATCH 3, SCHED_IDLE 5. */
  policy: number;
}

/** How the process is scheduled (its main thread); null when it is gone. */
export function schedulingOf(pid: number | 'self'): Scheduling | null {
  const fields = statFields(pid);
  if (fields === null) return null;
  // proc(5) fields 19, 40 and 41; `fields` starts at field 3.
  return { nice: Number(fields[16]), realTimePriority: Number(fields[37]), policy: Number(fields[38]) };
}

/** The capabilities this process holds in effect (CapEff of /proc/self/status, bit n = capability n). */
export function effectiveCapabilities(): bigint {
  try {
    const line = /^CapEff:\s*([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return line ? BigInt(`0x${line[1]}`) : 0n;
  } catch {
    return 0n;
  }
}

/** The fields of /proc/<pid>/stat from the state on. */
function statFields(pid: number | 'self'): string[] | null {
  try {
    return fieldsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** "pid (comm) state ppid pgrp ...", and comm may itself contain spaces or ')'. */
function fieldsOf(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Sends a signal to every process of a group; a group that is already gone is fine. */
export function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // Nothing left to signal.
  }
}
