import type { Page } from 'playwright-core';
import { PageAddress } from '../../../lib/api/inputs/automation';
import { z } from '../../../lib/api/zod';
import { PageProblem } from '../../core/domain-errors';
import { addressOf, placeOf } from '../page-where';
import { runStep } from '../steps';
import { definePageTool, stepContext } from './page-tool';

export const tabs = definePageTool({
  name: 'browser_tabs',
  title: 'List, open, select or close tabs',
  description: 'Your tabs and those their pages opened: list; new (at url); select or close index.',
  input: {
    action: z.enum(['list', 'new', 'select', 'close']),
    index: z.optional(z.int().check(z.minimum(0), z.maximum(1000))),
    url: z.optional(PageAddress),
  },
  whileDialogOpen: true,
  async run(tab, { action, index, url }, context) {
    const open = () => tab.list();
    const pick = (): Page => {
      const page = index === undefined ? tab.current : open()[index];
      if (!page) throw new PageProblem(`There is no tab ${index}; list the tabs to see their numbers.`);
      return page;
    };
    if (action === 'new') {
      tab.current = await tab.newTab();
      if (url) await runStep({ action: 'goto', url }, stepContext(tab, context));
    } else if (action === 'select') {
      tab.current = pick();
      await tab.current.bringToFront();
    } else if (action === 'close') {
      const closing = pick();
      if (open().length === 1) throw new PageProblem('This is your last tab; it stays open.');
      await closing.close();
      if (closing === tab.current) tab.current = open()[0] as Page;
    }
    const lines = await Promise.all(
      open().map(
        async (page, index) =>
          `${index}: ${page === tab.current ? '(current) ' : ''}${placeOf(await addressOf(page))}`,
      ),
    );
    return { text: lines.join('\n') };
  },
});
