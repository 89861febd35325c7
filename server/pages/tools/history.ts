import { z } from '../../../lib/api/zod';
import { PageProblem } from '../../core/domain-errors';
import { goInHistory } from '../page-history';
import { where } from '../page-where';
import { definePageTool } from './page-tool';

export const history = definePageTool({
  name: 'browser_history',
  title: 'Go back or forward',
  description: 'Goes back or forward in the tab.',
  input: { go: z.enum(['back', 'forward']) },
  async run(tab, { go }) {
    const page = tab.current;
    if (!(await goInHistory(page, go))) throw new PageProblem(`There is no page to go ${go} to.`);
    return where(page, `Went ${go}.`);
  },
});
