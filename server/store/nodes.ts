import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { sessionIsLive } from './sessions';

export interface PeerNode {
  id: string;
  url: string;
}

/** Joins (or rejoins after a restart) as a node taking sessions. */
export async function registerNode(
  db: Queryable,
  node: { id: string; url: string; capacity: number },
): Promise<void> {
  await db.query(
    `insert into nodes (id, url, capacity, draining, heartbeat_at) values ($1, $2, $3, false, now())
     on conflict (id) do update set url = excluded.url, capacity = excluded.capacity, draining = false,
       heartbeat_at = now()`,
    [node.id, node.url, node.capacity],
  );
}

/** Still here; answers whether the row was there (another node may have declared this one lost). */
export async function heartbeat(db: Queryable, nodeId: string, draining: boolean): Promise<boolean> {
  const rows = await db.query(
    'update nodes set heartbeat_at = now(), draining = $2 where id = $1 returning id',
    [nodeId, draining],
  );
  return rows.length > 0;
}

export async function leaveCluster(db: Queryable, nodeId: string): Promise<void> {
  await db.query('delete from nodes where id = $1', [nodeId]);
}

/**
 * Removes the other nodes that stopped heartbeating for `lostAfterMs`; answers their ids (each to exactly one
 * caller). A node never removes itself: a stall of its own (a busy machine) is not its loss, and a lone node has
 * nobody to lose.
 */
export async function removeLostNodes(db: Queryable, selfId: string, lostAfterMs: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `delete from nodes where heartbeat_at < now() - make_interval(secs => $1) and id <> $2 returning id`,
    [lostAfterMs / 1000, selfId],
  );
  return rows.map((row) => row.id);
}

/** Other nodes, heard from within `lostAfterMs`, with a free browser slot, the emptiest first. */
export async function nodesWithRoom(
  db: Queryable,
  exceptId: string,
  lostAfterMs: number,
): Promise<PeerNode[]> {
  return db.query<PeerNode>(
    `select n.id, n.url from nodes n
      where n.id <> $1 and not n.draining and n.url <> ''
        and n.heartbeat_at >= now() - make_interval(secs => $2)
        and n.capacity > (select count(*) from sessions s where s.node_id = n.id and ${sessionIsLive('s.status')})
      order by n.capacity - (select count(*) from sessions s where s.node_id = n.id and ${sessionIsLive('s.status')}) desc
      limit 10`,
    [exceptId, lostAfterMs / 1000],
  );
}

/** The node that runs the session's browser, when it is another live node. */
export async function peerOfSession(
  db: Queryable,
  sessionId: string,
  exceptId: string,
): Promise<PeerNode | null> {
  return firstRow(
    db.query<PeerNode>(
      `select n.id, n.url from sessions s join nodes n on n.id = s.node_id
        where s.id = $1 and n.id <> $2 and n.url <> ''`,
      [sessionId, exceptId],
    ),
  );
}

/** The node with this id, while it is in the cluster. */
export async function findNode(db: Queryable, nodeId: string): Promise<PeerNode | null> {
  return firstRow(db.query<PeerNode>(`select id, url from nodes where id = $1 and url <> ''`, [nodeId]));
}

/** The secret the nodes share, made by whichever node asks first. */
export async function clusterSecret(db: Queryable, candidate: Buffer): Promise<Buffer> {
  await db.query(
    `insert into cluster_secrets (name, secret) values ('cluster', $1) on conflict (name) do nothing`,
    [candidate],
  );
  const [row] = await db.query<{ secret: Uint8Array }>(
    `select secret from cluster_secrets where name = 'cluster'`,
  );
  if (!row) throw new Error('the cluster secret vanished');
  return Buffer.from(row.secret);
}
