import { z } from '../../../lib/api/zod';
import { findLines } from '../find-lines';
import { refsOf } from '../page-refs';
import { addressOf, placeOf } from '../page-where';
import { definePageTool } from './page-tool';

export const find = definePageTool({
  name: 'browser_find',
  title: 'Find elements by text',
  description: 'Elements whose name or text holds text, with refs and lines around.',
  input: { text: z.string().check(z.minLength(1), z.maxLength(200)) },
  readOnly: true,
  async run(tab, { text }) {
    const found = findLines(await refsOf(tab.current).read(), text);
    return { text: `${placeOf(await addressOf(tab.current))}\n${found.text}` };
  },
});
