import { Ref } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { dialogLine, openDialog } from '../page-dialogs';
import { refsOf } from '../page-refs';
import { cutUrl } from '../page-text';
import { addressOf, placeOf } from '../page-where';
import { withinBytes } from '../within-bytes';
import { definePageTool } from './page-tool';

export const snapshot = definePageTool({
  name: 'browser_snapshot',
  title: 'Read the page',
  description: 'The page’s accessibility tree, elements marked [ref=eN]; ref: a subtree; depth: levels.',
  input: {
    ref: z.optional(Ref),
    depth: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
  },
  readOnly: true,
  whileDialogOpen: true,
  async run(tab, { ref, depth }, { maxOutputBytes }) {
    const page = tab.current;
    const dialog = openDialog(page);
    if (dialog) return { text: `${cutUrl(page.url())}\n${dialogLine(dialog)}` };
    const tree = withinBytes(
      await refsOf(page).read({ ref, depth }),
      maxOutputBytes,
      `# (cut at ${maxOutputBytes} bytes: find elements with browser_find, or read one part with ref and depth)`,
    );
    return { text: `${placeOf(await addressOf(page))}\n\`\`\`yaml\n${tree}\n\`\`\`` };
  },
});
