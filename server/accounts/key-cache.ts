import type { Database } from '../db/driver';
import type { AccountOfKey, KeyLookup } from '../store/accounts';

/** The channel a trigger on `accounts` and `api_keys` notifies when a row changes or goes (migration 003). */
export const ACCOUNT_CHANGES_CHANNEL = 'account_changes';
const MAX_ENTRIES = 10_000;

/**
 * The accounts of keys seen recently, with the actor each key is (its member, role and scope), so that
 * authenticating and authorizing a request cost no statement. Any change to an account, a key or a member
 * (revocation, plan, role, scope, removal, deletion) empties it: PostgreSQL notifies every listening process when
 * the change commits, whichever process or command made it. While that notification cannot be heard (the
 * listening connection is lost, or not yet open) nothing is cached.
 */
export class KeyCache {
  private readonly accounts = new Map<string, { account: AccountOfKey; expiresAt: Date | null }>();
  private generation = 0;
  private hearing = false;

  /** Listens for changes; caching starts once the database listens. Resolves to a function that stops. */
  async listen(db: Database): Promise<() => Promise<void>> {
    const stop = await db.listen(ACCOUNT_CHANGES_CHANNEL, {
      onNotify: () => this.forgetAll(),
      onLost: () => {
        this.hearing = false;
        this.forgetAll();
      },
      onRestored: () => {
        this.forgetAll();
        this.hearing = true;
      },
    });
    this.hearing = true;
    return async () => {
      this.hearing = false;
      this.forgetAll();
      await stop();
    };
  }

  /**
   * The cached account of the key with this hash while the key has not expired at `now`, or else what `find`
   * finds, cached when it is an account and no change was heard meanwhile (an answer read before a change may
   * already be stale).
   */
  async lookUp(keyHash: string, now: Date, find: () => Promise<KeyLookup>): Promise<KeyLookup> {
    const cached = this.accounts.get(keyHash);
    if (cached) {
      if (cached.expiresAt === null || cached.expiresAt > now) return cached;
      this.accounts.delete(keyHash);
      return { failure: 'expired' };
    }
    const generation = this.generation;
    const found = await find();
    if ('account' in found && this.hearing && generation === this.generation) {
      if (this.accounts.size >= MAX_ENTRIES) this.forgetOldest();
      this.accounts.set(keyHash, found);
    }
    return found;
  }

  private forgetOldest(): void {
    const oldest = this.accounts.keys().next();
    if (!oldest.done) this.accounts.delete(oldest.value);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.accounts.clear();
  }
}
