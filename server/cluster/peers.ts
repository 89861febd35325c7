import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PageAnswer, PageCall } from '../../lib/api/inputs/page-tools';
import type { Cookie } from '../../lib/api/schemas/cookies';
import type { CurrentPage } from '../../lib/api/schemas/sessions';
import { fromWire, Unavailable, type WireError } from '../core/domain-errors';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { Holder } from '../store/leases';
import { findNode, nodesWithRoom, type PeerNode } from '../store/nodes';
import type { SessionRow, StopReason } from '../store/sessions';

/** The header a node's request to another carries: a key derived from the cluster's shared secret. */
export const NODE_AUTH_HEADER = 'x-node-auth';

/** A start waits for the other node's browser to launch. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** A page tool may wait for a navigation (30 s) after connecting to the browser. */
const PAGE_TIMEOUT_MS = 60_000;
/** A glance for a list: the list does not wait longer for another node's browser. */
const GLANCE_TIMEOUT_MS = 3_000;

/** What a node asks of the other nodes: to start, stop or cancel what runs there. */
export interface Peers {
  /** Starts the session on another node with room: its id, or null when no other node has room. */
  startElsewhere(
    accountId: string,
    profileId: string,
    holder: Holder,
    headless: boolean,
  ): Promise<string | null>;
  /** Stops a session another node runs; false when that node has left (nobody holds its browser). */
  stopElsewhere(row: SessionRow, reason: StopReason): Promise<boolean>;
  /** Tells the node that runs a run to cancel it; false when that node has left. */
  cancelElsewhere(run: { node_id: string; account_id: string; id: string }): Promise<boolean>;
  /**
   * Reads (`change` null) or writes a profile's cookies on the node that runs its session: the cookies, or how
   * many were taken; null when that node has left.
   */
  cookiesElsewhere(
    row: SessionRow,
    change: CookieChange | null,
    holder: Holder,
  ): Promise<Cookie[] | number | null>;
  /** Performs an agent's page tool on the node that runs the session's browser; null when that node has left. */
  pageElsewhere(row: SessionRow, call: PageCall): Promise<PageAnswer | null>;
  /**
   * What the node that runs the session sees of it: its current page, or its thumbnail as base64; null when
   * that node has left or has no answer.
   */
  glanceElsewhere(row: SessionRow, what: 'page' | 'thumbnail'): Promise<CurrentPage | string | null>;
}

export interface CookieChange {
  cookies: Cookie[];
  replace: boolean;
}

/** A process alone (or a test of one module): there is nobody else to ask. */
export const NO_PEERS: Peers = {
  startElsewhere: async () => null,
  stopElsewhere: async () => false,
  cancelElsewhere: async () => false,
  cookiesElsewhere: async () => null,
  pageElsewhere: async () => null,
  glanceElsewhere: async () => null,
};

/** The node that runs a session did not answer: it may be gone, and the sweep then marks its sessions stopped. */
export function nodeNotAnswering(sessionId: string): Unavailable {
  return new Unavailable(
    'browser_unavailable',
    'The machine running this session does not answer; if it is gone, the session is marked stopped within 30 seconds.',
    { retryAfterSeconds: 15, sessionId },
  );
}

export function nodeAuthKey(secret: Buffer): string {
  return createHmac('sha256', secret).update('node requests').digest('base64url');
}

export function isNodeAuth(given: string | undefined, key: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createPeers(deps: {
  db: Database;
  nodeId: string;
  authKey: string;
  log: Logger;
  lostAfterMs: number;
}): Peers {
  const { db, nodeId, authKey, log } = deps;

  async function post(node: PeerNode, path: string, body: object, timeoutMs: number): Promise<Response> {
    return fetch(new URL(path, node.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [NODE_AUTH_HEADER]: authKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  /** What a live node answered (its refusal thrown as the domain error it was there); null when it has left. */
  async function askNode(
    nodeId: string | null,
    path: string,
    body: object,
    timeoutMs = STOP_TIMEOUT_MS,
  ): Promise<object | null> {
    const node = nodeId ? await findNode(db, nodeId) : null;
    if (!node) return null;
    const response = await post(node, path, body, timeoutMs);
    if (!response.ok) throw await refusal(response);
    return (await response.json()) as object;
  }

  /** The other node's refusal, as the domain error it was there. */
  async function refusal(response: Response): Promise<Error> {
    const answer = (await response.json().catch(() => ({}))) as { error?: WireError };
    return answer.error ? fromWire(answer.error) : new Error(`a node answered ${response.status}`);
  }

  return {
    async startElsewhere(accountId, profileId, holder, headless) {
      for (const node of await nodesWithRoom(db, nodeId, deps.lostAfterMs)) {
        let response: Response;
        try {
          response = await post(
            node,
            '/internal/sessions',
            { account_id: accountId, profile_id: profileId, holder, headless },
            START_TIMEOUT_MS,
          );
        } catch (error) {
          log.warn('a node did not answer a session start', { node_id: node.id, error });
          continue;
        }
        if (response.ok) return ((await response.json()) as { session_id: string }).session_id;
        const error = await refusal(response);
        // Filled up since it was chosen: the next one may have room.
        if (error instanceof Unavailable && error.code === 'at_capacity') continue;
        throw error;
      }
      return null;
    },

    async stopElsewhere(row, reason) {
      const path = `/internal/sessions/${row.id}/stop`;
      return (await askNode(row.node_id, path, { account_id: row.account_id, reason })) !== null;
    },

    async cookiesElsewhere(row, change, holder) {
      const path = `/internal/profiles/${row.profile_id}/cookies`;
      const answer = await askNode(row.node_id, path, { account_id: row.account_id, change, holder });
      return answer && (answer as { answer: Cookie[] | number }).answer;
    },

    async pageElsewhere(row, call) {
      const path = `/internal/sessions/${row.id}/page`;
      const answer = await askNode(row.node_id, path, { account_id: row.account_id, call }, PAGE_TIMEOUT_MS);
      return answer && (answer as { answer: PageAnswer }).answer;
    },

    async glanceElsewhere(row, what) {
      const path = `/internal/sessions/${row.id}/glance`;
      const answer = await askNode(
        row.node_id,
        path,
        { account_id: row.account_id, what },
        GLANCE_TIMEOUT_MS,
      );
      return answer && (answer as { answer: CurrentPage | string | null }).answer;
    },

    async cancelElsewhere(run) {
      const path = `/internal/runs/${run.id}/cancel`;
      return (await askNode(run.node_id, path, { account_id: run.account_id })) !== null;
    },
  };
}
