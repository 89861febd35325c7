import { Ref } from '../../../lib/api/inputs/page-tools';
import { refsOf } from '../page-refs';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const hover = definePageTool({
  name: 'browser_hover',
  title: 'Hover an element',
  description: 'Hovers over ref’s element.',
  input: { ref: Ref },
  async run(tab, { ref }) {
    await (await refsOf(tab.current).locate(ref, undefined)).hover({ timeout: ELEMENT_TIMEOUT });
    return where(tab.current, `Hovering over ${ref}.`);
  },
});
