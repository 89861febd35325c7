import { z } from '../../../lib/api/zod';
import { PageProblem } from '../../core/domain-errors';
import { cutUrl } from '../page-text';
import { runStep } from '../steps';
import { definePageTool, ELEMENT_TIMEOUT, stepContext } from './page-tool';

/** The largest image a screenshot answers (a full page can be tens of megabytes). */
export const MAX_SCREENSHOT_BYTES = 5 * 2 ** 20;

export const takeScreenshot = definePageTool({
  name: 'browser_take_screenshot',
  title: 'Screenshot the page',
  description: 'A PNG of the tab (full_page: all). Prefer browser_snapshot.',
  input: { full_page: z.optional(z.boolean()) },
  readOnly: true,
  async run(tab, { full_page }, context) {
    const page = tab.current;
    let png: Uint8Array | null = null;
    // The visible part as a run's screenshot step takes it; the whole page only when asked.
    if (full_page) png = await page.screenshot({ type: 'png', fullPage: true, timeout: ELEMENT_TIMEOUT });
    else
      await runStep(
        { action: 'screenshot', name: 'screenshot' },
        stepContext(tab, context, async (_name, taken) => {
          png = taken;
          return 'screenshot';
        }),
      );
    const shot = png as Uint8Array | null;
    if (!shot) throw new Error('the screenshot step stored no image');
    if (shot.byteLength > MAX_SCREENSHOT_BYTES)
      throw new PageProblem(
        `The screenshot is ${(shot.byteLength / 2 ** 20).toFixed(1)} MB, over the ${MAX_SCREENSHOT_BYTES / 2 ** 20} MB an answer may carry; take the visible part (without full_page) or read the page with browser_snapshot.`,
      );
    const data = Buffer.from(shot).toString('base64');
    return { text: `Screenshot of ${cutUrl(page.url())}.`, image: { data, mimeType: 'image/png' } };
  },
});
