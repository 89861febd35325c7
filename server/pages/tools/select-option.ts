import { Ref } from '../../../lib/api/inputs/page-tools';
import { z } from '../../../lib/api/zod';
import { refsOf } from '../page-refs';
import { chooseOptions } from '../page-select';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const selectOption = definePageTool({
  name: 'browser_select_option',
  title: 'Choose options of a select',
  description: 'Chooses options (by value or label) of a select.',
  input: {
    ref: Ref,
    values: z.array(z.string().check(z.maxLength(1000))).check(z.minLength(1), z.maxLength(100)),
  },
  async run(tab, { ref, values }) {
    const target = await refsOf(tab.current).locate(ref, undefined);
    const chosen = await chooseOptions(target, values, ELEMENT_TIMEOUT);
    return where(tab.current, `Selected ${chosen.join(', ')}.`);
  },
});
