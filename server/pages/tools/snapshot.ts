import { dialogLine, openDialog } from '../page-dialogs';
import { refsOf } from '../page-refs';
import { cutUrl } from '../page-text';
import { addressOf } from '../page-where';
import { definePageTool } from './page-tool';

export const snapshot = definePageTool({
  name: 'browser_snapshot',
  title: 'Read the page',
  description: 'The page’s accessibility tree as text; elements to act on carry [ref=eN].',
  input: {},
  readOnly: true,
  whileDialogOpen: true,
  async run(tab, _args, { maxOutputBytes }) {
    const page = tab.current;
    const dialog = openDialog(page);
    if (dialog) {
      const url = cutUrl(page.url());
      return {
        text: `Page URL: ${url}\n${dialogLine(dialog)}`,
        structured: { url, dialog: dialogLine(dialog) },
      };
    }
    const tree = await refsOf(page).snapshot(maxOutputBytes);
    const { url, title } = await addressOf(page);
    return {
      text: `Page URL: ${url}\nPage title: ${title}\n\`\`\`yaml\n${tree}\n\`\`\``,
      structured: { url, title, snapshot: tree },
    };
  },
});
