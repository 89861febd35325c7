import { Newest } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { CONSOLE_LEVELS, consoleMessages as read } from '../page-logs';
import { definePageTool } from './page-tool';

export const consoleMessages = definePageTool({
  name: 'browser_console_messages',
  title: 'Read the console',
  description: 'Console messages since the last load (all: every one), level or worse.',
  input: { level: z.optional(z.enum(CONSOLE_LEVELS)), limit: Newest, all: z.optional(z.boolean()) },
  readOnly: true,
  whileDialogOpen: true,
  run: async (tab, args) => read(tab.current, args),
});
