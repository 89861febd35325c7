import { TypedText } from '../../../lib/api/inputs/automation';
import { z } from '../../../lib/api/zod';
import { answerDialog } from '../page-dialogs';
import { where } from '../page-where';
import { definePageTool } from './page-tool';

export const handleDialog = definePageTool({
  name: 'browser_handle_dialog',
  title: 'Answer a dialog',
  description: 'Accepts (with prompt_text) or dismisses the open dialog.',
  input: { accept: z.boolean(), prompt_text: z.optional(TypedText) },
  whileDialogOpen: true,
  async run(tab, { accept, prompt_text }) {
    return where(tab.current, await answerDialog(tab.current, accept, prompt_text));
  },
});
