import { z } from '../zod';
import { Timestamp } from './common';

/**
 * A file a session's browser downloaded, kept in its profile's space. `name` is the page's suggested name made
 * safe (no folders, no control characters); `state` is `in_progress` until the browser finishes, `canceled` when
 * the page or the plan's limit on downloads ended it (`error` says which).
 */
export const SessionDownload = z.object({
  id: z.string(),
  name: z.string(),
  size: z.int(),
  content_type: z.string(),
  state: z.enum(['in_progress', 'completed', 'canceled']),
  error: z.nullable(z.string()),
  started_at: Timestamp,
  finished_at: z.nullable(Timestamp),
});
export type SessionDownload = z.infer<typeof SessionDownload>;

/** A session's downloads, oldest first. */
export const SessionDownloadList = z.object({ data: z.array(SessionDownload) });
