import type { PageAnswer } from '../../lib/api/inputs/page-tools';
import { refuseWhileOpen, unlessDialogOpens } from './page-dialogs';
import { noteDownloadsSoFar } from './page-downloads';
import { where } from './page-where';
import type { AgentTabs, AnyPageTool, PageToolContext } from './tools/page-tool';

/**
 * Runs one page tool on the agent's tab. A dialog holds the page until it is answered: only the tools that say
 * they run under one do; any other is refused while one is open, and answers as soon as one opens.
 */
export async function runPageTool(
  tabs: AgentTabs,
  tool: AnyPageTool,
  args: Record<string, unknown>,
  context: PageToolContext,
): Promise<PageAnswer> {
  if (tabs.current.isClosed()) {
    // The person (or a page) closed the agent's tab: it goes on in another of its own.
    tabs.current = tabs.list()[0] ?? (await tabs.newTab());
  }
  await noteDownloadsSoFar(tabs.downloads);
  const page = tabs.current;
  if (tool.whileDialogOpen) return tool.run(tabs, args, context);
  refuseWhileOpen(page);
  // A tab its page opened took the front of the agent's window: the agent's tab is made visible again, since a
  // hidden page runs no animation frame, and a click waits for one.
  await page.bringToFront();
  return unlessDialogOpens(page, tabs.acting(tool.run(tabs, args, context)), () =>
    where(page, 'A dialog opened.'),
  );
}
