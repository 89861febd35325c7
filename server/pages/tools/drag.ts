import { Ref } from '../../../lib/api/inputs/page-tools';
import { refsOf } from '../page-refs';
import { where } from '../page-where';
import { definePageTool, ELEMENT_TIMEOUT } from './page-tool';

export const drag = definePageTool({
  name: 'browser_drag',
  title: 'Drag and drop',
  description: 'Drags ref’s element onto to_ref’s.',
  input: { ref: Ref, to_ref: Ref },
  async run(tab, { ref, to_ref }) {
    const refs = refsOf(tab.current);
    const [from, to] = [await refs.locate(ref, undefined), await refs.locate(to_ref, undefined)];
    await from.dragTo(to, { timeout: ELEMENT_TIMEOUT });
    return where(tab.current, `Dragged ${ref} onto ${to_ref}.`);
  },
});
