import { useEffect, useState } from 'preact/hooks';
import type { Reply, WorkerError } from '../lib/messaging/protocol';

/**
 * Whether the service answered the last thing this page asked, for one banner that says it is down instead of
 * an error in every list and row. Set by a reply that got no answer; cleared by any answer. Lists and rows
 * leave the failure to the banner only while one is drawn (the set-up form has none: it says it itself).
 */
let down: WorkerError | null = null;
let banners = 0;
const listeners = new Set<() => void>();
const tell = () => {
  for (const listener of listeners) listener();
};

export function noteReply(reply: Reply<unknown>): void {
  const next = reply.ok ? null : reply.error.code === 'network_error' ? reply.error : down;
  if (next === down) return;
  down = next;
  tell();
}

function useChanges(): void {
  const [, setCount] = useState(0);
  useEffect(() => {
    const changed = () => setCount((count) => count + 1);
    listeners.add(changed);
    return () => void listeners.delete(changed);
  }, []);
}

/** The failure that says the service cannot be reached, for the banner that says so; it counts as drawn. */
export function useServiceDownBanner(): WorkerError | null {
  useChanges();
  useEffect(() => {
    banners += 1;
    tell();
    return () => {
      banners -= 1;
      tell();
    };
  }, []);
  return down;
}

/** Whether a banner says the service cannot be reached: then a list or row does not say it again. */
export function useSaidByBanner(): boolean {
  useChanges();
  return down !== null && banners > 0;
}
