import type { AccountOfKey } from '../store/accounts';
import type { Holder } from '../store/leases';

/** The member a key acts as: the holder its starts take a profile's lease for, and who the audit names. */
export function actingMember(account: AccountOfKey): Holder {
  return { id: account.key_id, name: account.name };
}
