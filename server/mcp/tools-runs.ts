import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RunCreate } from '../../lib/api/inputs/automation';
import { DEFAULT_RUN_TIMEOUT_MS } from '../automation/runner';
import { waitForRun } from '../automation/wait-for-run';
import { findRun, isActiveRun, toRun } from '../store/runs';
import { addTool, type ToolContext } from './tool-kit';

/** How long a run may wait in its profile's queue, on top of its own time limit, before the tool answers anyway. */
const QUEUE_ALLOWANCE_MS = 60_000;

/** run_script: queues an automation run as POST /v1/automation/run does, and waits for its end. */
export function addRunTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  const accountId = ctx.account.id;
  addTool(
    server,
    ctx,
    'run_script',
    {
      title: 'Run an automation script',
      description:
        'Runs steps (CSS selectors) in a new tab of the profile’s browser, started if needed, and waits for the ' +
        'end: status, step outcomes, outputs. Prefer it to many browser_* calls for a known sequence.',
      input: RunCreate,
    },
    async (body) => {
      const queued = await deps.automation.enqueue(accountId, body, async () => {});
      const row = await findRun(deps.db, accountId, queued.id);
      if (!row) throw new Error(`run ${queued.id} vanished after it was queued`);
      const deadline = Date.now() + (body.script.timeout_ms ?? DEFAULT_RUN_TIMEOUT_MS) + QUEUE_ALLOWANCE_MS;
      const finished = await waitForRun(deps, row, (run) => !isActiveRun(run.status), deadline, ctx.signal);
      const run = toRun(finished);
      const text = isActiveRun(run.status)
        ? `The run ${run.id} is still ${run.status}; it goes on, and GET /v1/automation/status?run_id=${run.id} tells its end.`
        : undefined;
      return { structured: run, ...(text ? { text: `${text}\n${JSON.stringify(run)}` } : {}) };
    },
  );
}
