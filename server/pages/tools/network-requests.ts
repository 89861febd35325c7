import { Newest } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { networkRequests as read } from '../page-logs';
import { definePageTool } from './page-tool';

export const networkRequests = definePageTool({
  name: 'browser_network_requests',
  title: 'List network requests',
  description: 'The tab’s newest requests and statuses (50; limit); headers: with secrets redacted.',
  input: { limit: Newest, headers: z.optional(z.boolean()) },
  readOnly: true,
  whileDialogOpen: true,
  run: (tab, args) => read(tab.current, args),
});
