import { addressOf } from '../page-where';
import { targetIdOf } from '../tab-target';
import { definePageTool } from './page-tool';

/** Not offered to agents: which tab the agent acts in (its DevTools target id), for request_human on any node. */
export const agentTab = definePageTool({
  name: 'agent_tab',
  title: 'The agent’s tab',
  description: 'The DevTools target id of the tab the agent acts in.',
  input: {},
  readOnly: true,
  whileDialogOpen: true,
  async run(tab) {
    const tabId = await targetIdOf(tab.current);
    if (tabId === null) throw new Error('the tab could not be named');
    return { text: tabId, structured: { tab_id: tabId, ...(await addressOf(tab.current)) } };
  },
});
