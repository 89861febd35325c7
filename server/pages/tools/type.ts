import { TypedText } from '../../../lib/api/inputs/automation';
import { Ref } from '../../../lib/api/inputs/page-tools';
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
    text: TypedText,
    submit: z.optional(z.boolean()),
  },
  async run(tab, { ref, text, submit }) {
    const target = await refsOf(tab.current).locate(ref, undefined);
    await target.fill(text, { timeout: ELEMENT_TIMEOUT });
    if (submit) await target.press('Enter', { timeout: ELEMENT_TIMEOUT });
    return where(tab.current, `Typed into ${ref}${submit ? ' and pressed Enter' : ''}.`);
  },
});
