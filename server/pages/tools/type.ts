import { TypedText } from '../../../lib/api/inputs/automation';
import { Element, Ref } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { refsOf } from '../page-refs';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const type = definePageTool({
  name: 'browser_type',
  title: 'Type into a field',
  description: 'Replaces the text of a field; submit presses Enter after.',
  input: {
    ref: Ref,
    element: Element,
    text: TypedText,
    submit: z.optional(z.boolean().check(z.describe('Press Enter after.'))),
  },
  async run(tab, { ref, element, text, submit }) {
    const target = await refsOf(tab.current).locate(ref, element);
    await target.fill(text, { timeout: ELEMENT_TIMEOUT });
    if (submit) await target.press('Enter', { timeout: ELEMENT_TIMEOUT });
    return where(tab.current, `Typed into ${element ?? ref}${submit ? ' and pressed Enter' : ''}.`);
  },
});
