import { z } from '../../../lib/api/zod';
import { where } from '../page-where';
import { definePageTool } from './page-tool';

export const pressKey = definePageTool({
  name: 'browser_press_key',
  title: 'Press a key',
  description: 'Presses a key (Enter, ArrowDown, Escape, a…) in the focused element.',
  input: { key: z.string().check(z.minLength(1), z.maxLength(50)) },
  async run(tab, { key }) {
    await tab.current.keyboard.press(key);
    return where(tab.current, `Pressed ${key}.`);
  },
});
