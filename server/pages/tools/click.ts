import { Ref } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { refsOf } from '../page-refs';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const click = definePageTool({
  name: 'browser_click',
  title: 'Click an element',
  description: 'Clicks the element of a ref.',
  input: {
    ref: Ref,
    double: z.optional(z.boolean()),
    button: z.optional(z.enum(['left', 'right', 'middle'])),
    modifiers: z.optional(
      z.array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'])).check(z.maxLength(5)),
    ),
  },
  async run(tab, { ref, double, button, modifiers }) {
    const target = await refsOf(tab.current).locate(ref, undefined);
    const options = { timeout: ELEMENT_TIMEOUT, button, modifiers };
    if (double) await target.dblclick(options);
    else await target.click(options);
    return where(tab.current, `${double ? 'Double-clicked' : 'Clicked'} ${ref}.`);
  },
});
