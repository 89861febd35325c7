import { Newest } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { networkRequests as read } from '../page-logs';
import { definePageTool } from './page-tool';

export const networkRequests = definePageTool({
  name: 'browser_network_requests',
  title: 'List network requests',
  description: 'The tab’s newest requests; headers: theirs, secrets redacted.',
  input: {
    limit: Newest,
    headers: z.optional(z.boolean()),
    failed_only: z.optional(z.boolean()),
    url_includes: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
  },
  readOnly: true,
  whileDialogOpen: true,
  run: (tab, args) => read(tab.current, args),
});
