import type { Page } from 'playwright-core';
import type { PageAnswer, PageCall } from '../../lib/api/inputs/page-tools';
import { nodeNotAnswering, type Peers } from '../cluster/peers';
import type { Limits } from '../core/config';
import { Conflict, InvalidInput, isDomainError, PageProblem } from '../core/domain-errors';
import type { Logger } from '../core/log';
import { downloadsOfSession } from '../downloads/session-downloads';
import type { SessionManager } from '../sessions/manager';
import type { SessionRow } from '../store/sessions';
import { agentTabs } from './agent-tabs';
import { type OpenTab, openTab } from './open-tab';
import { runPageTool } from './run-page-tool';
import { reasonOf } from './sentences';
import { targetIdOf } from './tab-target';
import { pageToolNamed } from './tools';
import { type AgentTabs, inputOf } from './tools/page-tool';
import { tabInNewWindow } from './window-tab';

/**
 * How long the agent's connection to a browser is kept after its last page tool. While it is open the session
 * counts as used (its idle timer waits); once closed, the session's own idle timeout starts.
 */
export const AGENT_QUIET_MS = 5 * 60_000;

/** The page tools of agents, on the browsers of the sessions they name. */
export interface AgentPages {
  /**
   * Runs a page tool on the session's browser: here, or on the node that runs it. `abandoned` aborts when the
   * caller no longer waits for the answer: the call is ended (an evaluation too), so the next one can run.
   */
  call(row: SessionRow, call: PageCall, abandoned?: AbortSignal): Promise<PageAnswer>;
  /** Runs it on this node, which runs the session's browser (another node forwarded it). */
  callHere(row: SessionRow, call: PageCall, abandoned?: AbortSignal): Promise<PageAnswer>;
  /** On shutdown: closes every agent connection (the browsers stay). */
  releaseAll(): Promise<void>;
}

/** One agent (one MCP connection) on a session: its tabs, and its calls in turn. */
interface Agent {
  tabs: AgentTabs;
  /** An agent's calls run one after the other: a click lands on the page its previous call left. */
  queue: Promise<unknown>;
}

/** The service's connection to a session's browser, and the agents acting on it, each in tabs of its own. */
interface Held {
  tab: OpenTab;
  /** Each agent's, by its key; a promise, so that two first calls of one agent open one tab. */
  agents: Map<string, Promise<Agent>>;
  quiet?: NodeJS.Timeout;
  closed: AbortController;
}

export function createAgentPages(deps: {
  sessions: SessionManager;
  peers: Peers;
  nodeId: string;
  limits: Pick<Limits, 'maxStepOutputBytes' | 'evaluateTimeoutMs'>;
  log: Logger;
  /** Where the profiles' folders, and so the sessions' downloads, are. */
  dataDir: string;
}): AgentPages {
  const { sessions, peers, nodeId, limits, log, dataDir } = deps;
  const held = new Map<string, Promise<Held>>();

  function notRunning(row: SessionRow): Conflict {
    return new Conflict(
      'session_not_running',
      `The session is ${row.status === 'running' ? 'no longer running' : row.status}; start the profile's session again.`,
      row.id,
    );
  }

  /** Connects to the session's DevTools in this process, as a run does, into a tab of the agent's own. */
  async function connect(row: SessionRow): Promise<Held> {
    const devtools = sessions.devtoolsOf(row.id);
    if (devtools === null) throw notRunning(row);
    const tab = await openTab(devtools);
    const entry: Held = { tab, agents: new Map(), closed: new AbortController() };
    tab.page
      .context()
      .browser()
      ?.once('disconnected', () => forget(row.id, entry));
    return entry;
  }

  function forget(sessionId: string, entry: Held): void {
    clearTimeout(entry.quiet);
    entry.closed.abort();
    void held.get(sessionId)?.then((current) => {
      if (current === entry) held.delete(sessionId);
    });
  }

  /** The agent's tabs: the connection's first tab for the first agent, a new one for each other. */
  function agentOf(row: SessionRow, entry: Held, key: string): Promise<Agent> {
    const known = entry.agents.get(key);
    if (known) return known;
    const isFirst = entry.agents.size === 0;
    const made = (async () => {
      const first = isFirst ? entry.tab.page : await tabInNewWindow(entry.tab.page.context());
      const downloads = { list: () => downloadsOfSession(dataDir, row), reported: null };
      return { tabs: agentTabs(first, downloads), queue: Promise.resolve() };
    })();
    entry.agents.set(key, made);
    made.catch(() => entry.agents.delete(key));
    return made;
  }

  async function release(sessionId: string, entry: Held): Promise<void> {
    forget(sessionId, entry);
    held.delete(sessionId);
    const agents = await Promise.allSettled(entry.agents.values());
    const others = agents.flatMap((agent) => (agent.status === 'fulfilled' ? agent.value.tabs.list() : []));
    await Promise.all(
      others.filter((page) => page !== entry.tab.page).map((page) => page.close().catch(() => {})),
    );
    await entry.tab.release();
  }

  async function heldFor(row: SessionRow): Promise<Held> {
    let pending = held.get(row.id);
    if (!pending) {
      pending = connect(row);
      held.set(row.id, pending);
      pending.catch(() => held.delete(row.id));
    }
    return pending;
  }

  async function callHere(row: SessionRow, call: PageCall, abandoned?: AbortSignal): Promise<PageAnswer> {
    const tool = pageToolNamed(call.tool);
    if (!tool) throw new InvalidInput('tool', 'is not a page tool', `There is no page tool ${call.tool}.`);
    const args = inputOf(tool).safeParse(call.args);
    if (!args.success)
      throw new InvalidInput('args', 'do not fit the tool', `${call.tool}: invalid arguments.`);
    if (row.status !== 'running' || sessions.devtoolsOf(row.id) === null) throw notRunning(row);
    let entry: Held;
    let agent: Agent;
    try {
      entry = await heldFor(row);
      agent = await agentOf(row, entry, call.agent ?? '');
    } catch (error) {
      if (error instanceof Conflict) throw error;
      throw new PageProblem(`The session's browser could not be reached: ${reasonOf(error)}.`);
    }
    clearTimeout(entry.quiet);
    const stop = abandoned ? AbortSignal.any([entry.closed.signal, abandoned]) : entry.closed.signal;
    const turn = agent.queue.then(() => {
      if (abandoned?.aborted) throw new PageProblem('The call was abandoned before it ran.');
      return runPageTool(agent.tabs, tool, args.data, {
        maxOutputBytes: limits.maxStepOutputBytes,
        evaluateTimeoutMs: limits.evaluateTimeoutMs,
        stop,
        egressRefusalOf: (host) => sessions.egressRefusalOf(row.id, host),
      });
    });
    agent.queue = turn.catch(() => {});
    try {
      return await turn;
    } catch (error) {
      if (isDomainError(error)) throw error;
      if (entry.closed.signal.aborted) throw notRunning(row);
      log.info('page tool failed', { session_id: row.id, tool: call.tool, reason: reasonOf(error) });
      throw new PageProblem(`${call.tool} failed: ${reasonOf(error)}.`);
    } finally {
      // Before the answer: whoever opens the live view or lists the session next sees the agent's tab.
      await markActiveTab(row.id, agent.tabs.current);
      // Calls that ran together each end here: only the last one's timer may stay armed.
      clearTimeout(entry.quiet);
      if (held.has(row.id))
        entry.quiet = setTimeout(() => void release(row.id, entry), AGENT_QUIET_MS).unref();
    }
  }
  /** The agent's tab is the one the live view opens on (it may have switched tabs). */
  async function markActiveTab(sessionId: string, page: Page): Promise<void> {
    if (page.isClosed()) return;
    const targetId = await targetIdOf(page);
    if (targetId) sessions.markActiveTab(sessionId, targetId);
  }

  return {
    callHere,
    async call(row, call, abandoned) {
      if (row.status !== 'running') throw notRunning(row);
      if (sessions.devtoolsOf(row.id) !== null || row.node_id === null || row.node_id === nodeId)
        return callHere(row, call, abandoned);
      let answer: PageAnswer | null;
      try {
        answer = await peers.pageElsewhere(row, call);
      } catch (error) {
        if (isDomainError(error)) throw error;
        log.warn('the node running a session did not answer a page tool', { session_id: row.id, error });
        throw nodeNotAnswering(row.id);
      }
      if (answer === null) throw notRunning(row);
      return answer;
    },
    async releaseAll() {
      const entries = await Promise.allSettled(held.values());
      await Promise.all(
        [...held.keys()].map((sessionId, index) => {
          const settled = entries[index];
          return settled?.status === 'fulfilled' ? release(sessionId, settled.value) : undefined;
        }),
      );
    },
  };
}
