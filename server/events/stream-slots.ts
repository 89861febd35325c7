import type { Plan } from '../../lib/api/schemas/account';
import { PlanLimit } from '../core/domain-errors';

/** Event streams (SSE and WebSocket together) an account may hold open at once on a service process. */
export const STREAM_CAPS: Record<Plan, number> = { free: 2, premium: 5, enterprise: 20 };

/** Counts each account's open streams and refuses one past its plan's cap. */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  /** Takes a slot, or throws the plan's limit as a sentence; the returned function gives it back (once). */
  take(account: { id: string; plan: Plan }): () => void {
    const cap = STREAM_CAPS[account.plan];
    const held = this.open.get(account.id) ?? 0;
    if (held >= cap) {
      throw new PlanLimit(
        'stream_limit',
        `Your ${account.plan} plan allows ${cap} event stream${cap === 1 ? '' : 's'} open at once; close one to open another.`,
      );
    }
    this.open.set(account.id, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(account.id) ?? 1) - 1;
      if (left > 0) this.open.set(account.id, left);
      else this.open.delete(account.id);
    };
  }
}
