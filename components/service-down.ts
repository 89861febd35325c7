import { useEffect, useState } from 'preact/hooks';
import type { Reply, WorkerError } from '../lib/messaging/protocol';

/**
 * Whether the service answered the last thing this page asked, for one banner that says it is down instead of
 * an error in every list and row. Set by a reply that got no answer; cleared by any answer.
 */
let down: WorkerError | null = null;
const listeners = new Set<(error: WorkerError | null) => void>();

export function noteReply(reply: Reply<unknown>): void {
  const next = reply.ok ? null : reply.error.code === 'network_error' ? reply.error : down;
  if (next === down) return;
  down = next;
  for (const listener of listeners) listener(down);
}

/** The failure that says the service cannot be reached, while it is so; else null. */
export function useServiceDown(): WorkerError | null {
  const [error, setError] = useState(down);
  useEffect(() => {
    listeners.add(setError);
    return () => void listeners.delete(setError);
  }, []);
  return error;
}
