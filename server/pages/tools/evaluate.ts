import { PageExpression } from '../../../lib/api/inputs/automation';
import { evaluateInPage } from '../page-evaluate';
import { definePageTool } from './page-tool';

export const evaluate = definePageTool({
  name: 'browser_evaluate',
  title: 'Run JavaScript in the page',
  description: 'The JSON value of a page expression (promises awaited, 20 s).',
  input: { expression: PageExpression },
  async run(tab, { expression }, { maxOutputBytes, stop, evaluateTimeoutMs }) {
    const result = await evaluateInPage(tab.current, expression, {
      maxBytes: maxOutputBytes,
      stop,
      timeLimitMs: evaluateTimeoutMs,
    });
    return { text: JSON.stringify(result) };
  },
});
