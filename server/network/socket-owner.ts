import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Socket } from 'node:net';
import { liveGroupMembersNow } from '../core/processes';

const ESTABLISHED = '01';

/**
 * Whether the other end of a loopback TCP connection is held by a process of `processGroup`: the kernel's
 * socket table gives the inode of the peer's socket, and a process holds that inode among its descriptors.
 * Linux only; anywhere the tables cannot be read the answer is false.
 */
export function peerInProcessGroup(socket: Socket, processGroup: number): boolean {
  return peerHeldByOneOf(socket, liveGroupMembersNow(processGroup));
}

function peerHeldByOneOf(socket: Socket, pids: number[]): boolean {
  const { localPort, remotePort } = socket;
  if (localPort === undefined || remotePort === undefined) return false;
  const inode = peerSocketInode(localPort, remotePort);
  if (inode === null) return false;
  const target = `socket:[${inode}]`;
  return pids.some((pid) => holdsDescriptor(pid, target));
}

/** The inode of the socket whose local port is `remotePort` and whose remote port is `localPort`. */
function peerSocketInode(localPort: number, remotePort: number): string | null {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const [, local, remote, state, , , , , , inode] = fields;
      if (state !== ESTABLISHED || !local || !remote || !inode) continue;
      if (portOf(local) === remotePort && portOf(remote) === localPort) return inode;
    }
  }
  return null;
}

function portOf(hexAddress: string): number {
  return Number.parseInt(hexAddress.slice(hexAddress.lastIndexOf(':') + 1), 16);
}

function holdsDescriptor(pid: number, target: string): boolean {
  let descriptors: string[];
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return descriptors.some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
    } catch {
      return false;
    }
  });
}
