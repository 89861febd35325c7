import { z } from '../zod';
import { Id, Timestamp } from './common';

/**
 * Check all (POST /v1/proxies/checks): every proxy the account had saved when it began, checked a few at a time by
 * the service. `checked` of `total` are done, `failing` of them did not work; each result is also the proxy's last
 * check (a `proxy.updated` event). `running`, then `done`; `interrupted` when its node stopped before the end.
 */
export const ProxyCheckJob = z.object({
  id: Id,
  state: z.enum(['running', 'done', 'interrupted']),
  total: z.number(),
  checked: z.number(),
  failing: z.number(),
  created_at: Timestamp,
  finished_at: z.nullable(Timestamp),
});

export type ProxyCheckJob = z.infer<typeof ProxyCheckJob>;

/** POST /v1/proxies/replace: for each proxy replaced, the proxy that took its place and on how many profiles. */
export const ProxyReplaceResult = z.object({
  profiles: z.number(),
  replaced: z.array(z.object({ from: Id, to: Id, profiles: z.number() })),
});

export type ProxyReplaceResult = z.infer<typeof ProxyReplaceResult>;
