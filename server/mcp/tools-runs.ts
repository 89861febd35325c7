import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RunCreate } from '../../lib/api/inputs/automation';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { z } from '../../lib/api/zod';
import { artifactPath, readArtifact } from '../automation/artifacts';
import { DEFAULT_RUN_TIMEOUT_MS } from '../automation/runner';
import { waitForRun } from '../automation/wait-for-run';
import { MAX_SCREENSHOT_BYTES } from '../pages/tools/take-screenshot';
import { findRun, isActiveRun, toRun } from '../store/runs';
import { addTool, type ToolContext, type ToolImage } from './tool-kit';

/** How long a run may wait in its profile's queue, on top of its own time limit, before the tool answers anyway. */
const QUEUE_ALLOWANCE_MS = 60_000;

/** What run_script's input is said to be: each step's action and fields in a sentence, rather than seven schemas. */
const AdvertisedRun = z.object({
  profile_id: z.optional(z.string()),
  session_id: z.optional(z.string()),
  name: z.optional(z.string()),
  script: z.object({
    steps: z.array(
      z
        .object({})
        .check(
          z.describe(
            'action: goto (url), click (selector), type (selector, text), wait_for (selector and/or ms), extract (selector, name, attribute?), evaluate (expression, name?) or screenshot (name)',
          ),
        ),
    ),
    timeout_ms: z.optional(z.int()),
  }),
});

/** run_script: queues an automation run as POST /v1/automation/run does, and waits for its end. */
export function addRunTools(server: McpServer, ctx: ToolContext): void {
  const { deps } = ctx;
  addTool(
    server,
    ctx,
    'run_script',
    {
      acts: 'runAutomation',
      title: 'Run an automation script',
      description: 'Runs CSS-selector steps in a new tab (browser started if needed).',
      input: RunCreate,
      advertised: AdvertisedRun,
    },
    async (body) => {
      const queued = await deps.automation.enqueue(ctx.account, ctx.account.member, body, async () => {});
      const row = await findRun(deps.db, ctx.account, queued.id);
      if (!row) throw new Error(`run ${queued.id} vanished after it was queued`);
      const deadline = Date.now() + (body.script.timeout_ms ?? DEFAULT_RUN_TIMEOUT_MS) + QUEUE_ALLOWANCE_MS;
      const finished = await waitForRun(deps, row, (run) => !isActiveRun(run.status), deadline, ctx.signal);
      const run = toRun(finished);
      const text = isActiveRun(run.status)
        ? `The run ${run.id} is still ${run.status}; it goes on, and GET /v1/automation/status?run_id=${run.id} tells its end.`
        : undefined;
      const images = await screenshotsOf(ctx, run);
      return { structured: run, images, ...(text ? { text } : {}) };
    },
  );
}

/**
 * The run's screenshots as images an MCP client can show (an artifact's address is one it cannot open), in the
 * order of the outputs, as many as fit within MAX_SCREENSHOT_BYTES together.
 */
async function screenshotsOf({ deps, account }: ToolContext, run: AutomationRun): Promise<ToolImage[]> {
  const names = Object.entries(run.output ?? {})
    .filter(([name, value]) => value === artifactPath(run.id, name))
    .map(([name]) => name);
  const images: ToolImage[] = [];
  let weight = 0;
  for (const name of names) {
    const where = { db: deps.db, dataDir: deps.config.dataDir };
    const artifact = await readArtifact(where, { reader: account, runId: run.id }, name);
    if (!artifact || weight + artifact.bytes.byteLength > MAX_SCREENSHOT_BYTES) continue;
    weight += artifact.bytes.byteLength;
    images.push({ data: Buffer.from(artifact.bytes).toString('base64'), mimeType: artifact.contentType });
  }
  return images;
}
