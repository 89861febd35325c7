import type { EndpointName } from '../lib/api/endpoints';
import { mayCall } from '../lib/api/permissions';
import type { Role } from '../lib/api/roles';
import { plan } from '../lib/storage';
import { useItem } from './hooks';

/** Whether the key may do what an endpoint does: anything while its role is not known (the service decides). */
export type May = (endpoint: EndpointName) => boolean;

export const mayOf =
  (role: Role | undefined): May =>
  (endpoint) =>
    !role || mayCall(role, endpoint);

/** What the key's role may do, as the service last said, for views that offer only that. */
export function useMay(): May {
  return mayOf(useItem(plan)?.role);
}
