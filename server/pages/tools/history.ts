import { z } from '../../../lib/api/zod';
import { PageProblem } from '../../core/domain-errors';
import { where } from '../page-where';
import { definePageTool } from './page-tool';

const WITHIN = { timeout: 10_000 } as const;

export const history = definePageTool({
  name: 'browser_history',
  title: 'Go back or forward',
  description: 'Goes back or forward in the tab.',
  input: { go: z.enum(['back', 'forward']) },
  async run(tab, { go }) {
    const page = tab.current;
    const before = page.url();
    const how = { waitUntil: 'commit', ...WITHIN } as const;
    const went = go === 'back' ? await page.goBack(how) : await page.goForward(how);
    if (went === null && page.url() === before) throw new PageProblem(`There is no page to go ${go} to.`);
    // A page the back-forward cache restored (no response) is loaded again: Playwright's refs do not follow a
    // restored document, so the next snapshot's would not resolve.
    if (went === null) await page.reload({ waitUntil: 'load', ...WITHIN });
    return where(page, `Went ${go}.`);
  },
});
