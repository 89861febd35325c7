import { Newest } from '../../../lib/api/inputs/page-tools';
import { consoleMessages as read } from '../page-logs';
import { definePageTool } from './page-tool';

export const consoleMessages = definePageTool({
  name: 'browser_console_messages',
  title: 'Read the console',
  description: 'The tab’s newest console messages and page errors (50; limit).',
  input: { limit: Newest },
  readOnly: true,
  whileDialogOpen: true,
  run: (tab, { limit }) => read(tab.current, limit),
});
