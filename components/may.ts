import type { EndpointName } from '../lib/api/endpoints';
import type { PlanLimits } from '../lib/storage';

/** Whether the key may do what an endpoint does: anything the service did not say its role may not. */
export type May = (endpoint: EndpointName) => boolean;

export const mayOf =
  (key: PlanLimits | null | undefined): May =>
  (endpoint) =>
    !key?.mayNot?.includes(endpoint);
