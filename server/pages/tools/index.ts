import { agentTab } from './agent-tab';
import { click } from './click';
import { consoleMessages } from './console-messages';
import { drag } from './drag';
import { evaluate } from './evaluate';
import { fileUpload } from './file-upload';
import { fillForm } from './fill-form';
import { find } from './find';
import { handleDialog } from './handle-dialog';
import { history } from './history';
import { hover } from './hover';
import { navigate } from './navigate';
import { networkRequests } from './network-requests';
import type { AnyPageTool } from './page-tool';
import { pressKey } from './press-key';
import { selectOption } from './select-option';
import { snapshot } from './snapshot';
import { tabs } from './tabs';
import { takeScreenshot } from './take-screenshot';
import { type } from './type';
import { waitFor } from './wait-for';

/** The page tools agents are offered, in the order the tools list shows them. A new tool is one line here. */
export const PAGE_TOOLS: readonly AnyPageTool[] = [
  navigate,
  snapshot,
  find,
  click,
  hover,
  drag,
  history,
  handleDialog,
  fileUpload,
  consoleMessages,
  networkRequests,
  type,
  fillForm,
  selectOption,
  pressKey,
  waitFor,
  takeScreenshot,
  evaluate,
  tabs,
] as AnyPageTool[];

/** What one node may ask the node that runs a session to do on its page: the tools, and naming the agent's tab. */
const CALLABLE = new Map<string, AnyPageTool>(
  [...PAGE_TOOLS, agentTab as AnyPageTool].map((t) => [t.name, t]),
);

export function pageToolNamed(name: string): AnyPageTool | undefined {
  return CALLABLE.get(name);
}
