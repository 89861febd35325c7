import { z } from '../../../lib/api/zod';
import { waitFor as wait } from '../page-wait';
import { definePageTool } from './page-tool';

const Text = z.optional(z.string().check(z.minLength(1), z.maxLength(1000)));

export const waitFor = definePageTool({
  name: 'browser_wait_for',
  title: 'Wait for text, a download or time',
  description: 'Waits for text, text_gone to go, a new download (20 s), or time seconds.',
  input: {
    text: Text,
    text_gone: Text,
    time: z.optional(z.number().check(z.minimum(0), z.maximum(20))),
    download: z.optional(z.boolean()),
  },
  readOnly: true,
  run: (tab, args, { stop }) => wait(tab.current, tab.downloads, args, stop),
});
