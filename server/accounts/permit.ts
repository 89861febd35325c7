import type { EndpointName } from '../../lib/api/endpoints';
import { mayCall, refusalOf } from '../../lib/api/permissions';
import type { Role } from '../../lib/api/roles';
import { Forbidden } from '../core/domain-errors';

/** Refuses the act unless the role may call the endpoint it is, or does the same as (a bulk action, a tool). */
export function mustMay(role: Role, endpoint: EndpointName): void {
  if (!mayCall(role, endpoint)) throw new Forbidden(refusalOf(role, endpoint));
}
