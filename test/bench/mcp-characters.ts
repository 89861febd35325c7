/**
 * Characters an agent reads per task over MCP, on this checkout's service and on a baseline checkout's, side by side
 * in one run: each task is the calls an agent makes (the MCP SDK's client over /v1/mcp, on loopback pages in a
 * started session), and its figure is the length of every whole answer as JSON (text, structured content and all),
 * as the issue's suite measured them. Prints each task's figures, their ratio, and the mean per task (with a
 * baseline, of the tasks both did: a tool the baseline lacks leaves its task out of the comparison).
 * With PEER, the same page tasks on @playwright/mcp over stdio (the peer the issue compared with; it has no
 * profiles, sessions or scripts), and the tasks it did in fewer characters.
 * Run: BASELINE=/path/to/a/checkout/of/main PEER=/path/to/@playwright/mcp/cli.js npm run bench:characters
 * Without BASELINE or PEER, this checkout alone. Not a pass/fail test: the figures are for reading.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findChrome } from '../../server/browser/find-chrome';
import { startService } from '../support/harness';
import { call, connect, dataOf, httpTransport, servePages, textOf } from '../support/mcp-client';

const FORM = `<!doctype html><title>Sign up</title><label>Email <input></label><button onclick="out.textContent = 'Welcome'">Sign up</button><p id="out"></p>`;
const rows = (count: number) =>
  `<!doctype html><title>Orders</title><table>${Array.from(
    { length: count },
    (_, i) =>
      `<tr><td>Order ${i}</td><td>${i % 7 ? 'on time' : 'late'}</td><td><button onclick="document.title='Picked ${i}'">Pick ${i}</button></td></tr>`,
  ).join('')}</table>`;
const LOGS = `<!doctype html><title>Logs</title><script>for (let i = 0; i < 40; i++) console.log('chatter ' + i); console.error('boom');</script>`;
const PAGES: Record<string, string> = {
  '/form': FORM,
  '/table': rows(200),
  '/rows': rows(3000),
  '/logs': LOGS,
};

interface Agent {
  name: string;
  client: Client;
  session_id: string;
  profiles: string[];
  tools: Set<string>;
  chars: Map<string, number>;
  /** The peer's arguments differ: no session, and `target` for a ref. */
  argsFor?: (args: Record<string, unknown>) => Record<string, unknown>;
  close(): Promise<void>;
}

/** One task's calls; each answer's characters are added to the task's figure. */
type Task = (
  act: (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>,
  agent: Agent,
) => Promise<void>;

const refIn = (text: string, name: string) => {
  const line = text.split('\n').find((entry) => entry.includes(name) && entry.includes('[ref='));
  const ref = line && /\[ref=(\w+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${name} in:\n${text.slice(0, 2000)}`);
  return ref;
};

const TASKS: [string, Task][] = [
  ['read a profile', (act, { profiles }) => act('get_profile', { profile_id: profiles[0] }).then(() => {})],
  ['list sessions in full', (act) => act('list_sessions', { detail: true }).then(() => {})],
  [
    'fill a form',
    async (act, { session_id }) => {
      await act('browser_navigate', { session_id, url: `${site.origin}/form` });
      const page = textOf(await act('browser_snapshot', { session_id }));
      await act('browser_type', { session_id, ref: refIn(page, 'textbox "Email"'), text: 'ada@example.com' });
      await act('browser_click', { session_id, ref: refIn(page, 'button "Sign up"') });
      await act('browser_find', { session_id, text: 'Welcome' });
    },
  ],
  [
    'status of row 150 of 200',
    async (act, { session_id }) => {
      await act('browser_navigate', { session_id, url: `${site.origin}/table` });
      await act('browser_find', { session_id, text: 'Order 150' });
    },
  ],
  [
    'pick row 2345 of 3000',
    async (act, { session_id }) => {
      await act('browser_navigate', { session_id, url: `${site.origin}/rows` });
      const found = textOf(await act('browser_find', { session_id, text: 'Pick 2345' }));
      await act('browser_click', { session_id, ref: refIn(found, 'Pick 2345') });
    },
  ],
  [
    'the page’s console errors',
    async (act, { session_id }) => {
      await act('browser_navigate', { session_id, url: `${site.origin}/logs` });
      await act('browser_console_messages', { session_id, level: 'error' });
    },
  ],
  [
    'tag three profiles',
    async (act, { profiles, tools }) => {
      if (tools.has('bulk_profiles'))
        await act('bulk_profiles', { action: 'add_tags', select: { ids: profiles }, tags: ['bench'] });
      else
        for (const profile_id of profiles)
          await act('update_profile', { profile_id, changes: { tags: ['bench'] } });
    },
  ],
  [
    'a script run',
    async (act, { profiles }) => {
      const script = {
        steps: [
          { action: 'goto', url: `${site.origin}/form` },
          { action: 'extract', selector: 'button', name: 'label' },
        ],
      };
      await act('run_script', { profile_id: profiles[1], script });
    },
  ],
];

async function agent(name: string, root: string | undefined): Promise<Agent> {
  const service = await startService({ root, env: { EGRESS_ALLOW: 'loopback' } });
  const client = await connect(
    httpTransport(service.baseUrl, await service.createKey('enterprise', 'bench')),
  );
  const profiles: string[] = [];
  for (const label of ['A', 'B', 'C'])
    profiles.push(dataOf(await call(client, 'create_profile', { name: `Bench ${label}` })).id as string);
  const started = dataOf(await call(client, 'start_session', { profile_id: profiles[0], headless: true }));
  const tools = new Set((await client.listTools()).tools.map((tool) => tool.name));
  const session_id = started.id as string;
  const close = async () => {
    await call(client, 'stop_session', { session_id }).catch(() => undefined);
    await client.close();
    await service.close();
  };
  return { name, client, session_id, profiles, tools, chars: new Map(), close };
}

/** @playwright/mcp over stdio, headless, on the Chromium the service uses, its files in a folder of its own. */
async function peer(cli: string): Promise<Agent> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'peer-mcp-'));
  const chromium = process.env.CHROME_PATH || findChrome() || 'chromium';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, '--headless', '--isolated', '--no-sandbox', '--executable-path', chromium],
    cwd,
    stderr: 'ignore',
  });
  const client = await connect(transport);
  const tools = new Set((await client.listTools()).tools.map((tool) => tool.name));
  const argsFor = ({ session_id: _, ref, ...args }: Record<string, unknown>) =>
    ref === undefined ? args : { ...args, target: ref };
  const close = async () => {
    await client.close();
    await rm(cwd, { recursive: true, force: true });
  };
  return { name: 'peer', client, session_id: '', profiles: [], tools, chars: new Map(), argsFor, close };
}

/** A task whose tools an agent does not have (the peer's profiles and scripts): it has no figure there, nor one that made no call. */
class NotOffered extends Error {}

async function runTasks(on: Agent): Promise<void> {
  for (const [task, run] of TASKS) {
    let chars = 0;
    let calls = 0;
    const act = async (tool: string, args: Record<string, unknown>) => {
      if (!on.tools.has(tool)) throw new NotOffered(tool);
      calls += 1;
      const result = await call(on.client, tool, on.argsFor ? on.argsFor(args) : args);
      if (result.isError) throw new Error(`${on.name}: ${task}: ${tool}: ${textOf(result)}`);
      chars += JSON.stringify(result).length;
      return result;
    };
    try {
      await run(act, on);
      if (calls > 0) on.chars.set(task, chars);
    } catch (error) {
      if (!(error instanceof NotOffered)) throw error;
    }
  }
}

const site = await servePages((path) => PAGES[path.split('?')[0] ?? ''] ?? FORM);
const agents: Agent[] = [];
try {
  const base = process.env.BASELINE ? await agent('baseline', process.env.BASELINE) : null;
  if (base) agents.push(base);
  const mine = await agent('this checkout', undefined);
  agents.push(mine);
  const rival = process.env.PEER ? await peer(process.env.PEER) : null;
  if (rival) agents.push(rival);
  for (const on of agents) await runTasks(on);
  const number = (value: number) => value.toLocaleString('en-US').padStart(9);
  const heading = [base ? 'baseline, this checkout, ratio' : 'this checkout', rival ? 'peer' : ''];
  console.log(
    `MCP answers, characters per task (whole answers as JSON): ${heading.filter(Boolean).join('; ')}`,
  );
  for (const [task] of TASKS) {
    const now = mine.chars.get(task) ?? 0;
    const before = base?.chars.get(task);
    const theirs = rival?.chars.get(task);
    const columns =
      before !== undefined
        ? `${number(before)} ${number(now)}  ×${(now / before).toFixed(2)}`
        : `${base ? `${'—'.padStart(9)} ` : ''}${number(now)}`;
    const peerColumn = rival ? `  ${theirs === undefined ? '        —' : number(theirs)}` : '';
    console.log(`  ${task.padEnd(28)} ${columns}${peerColumn}`);
  }
  const compared = TASKS.map(([task]) => task).filter((task) => !base || base.chars.has(task));
  const perTask = (on: Agent) =>
    compared.reduce((sum, task) => sum + (on.chars.get(task) ?? 0), 0) / compared.length;
  const summary = base
    ? `${number(Math.round(perTask(base)))} ${number(Math.round(perTask(mine)))}  ×${(perTask(mine) / perTask(base)).toFixed(2)}`
    : number(Math.round(perTask(mine)));
  const label = base ? `per task (${compared.length} both did)` : 'per task';
  console.log(`  ${label.padEnd(28)} ${summary}`);
  if (rival) {
    const fewer = TASKS.map(([task]) => task).filter(
      (task) => (rival.chars.get(task) ?? Number.POSITIVE_INFINITY) < (mine.chars.get(task) ?? 0),
    );
    console.log(`  tasks the peer did in fewer characters: ${fewer.length ? fewer.join(', ') : 'none'}`);
  }
} finally {
  await Promise.all(agents.map((on) => on.close()));
  await site.close();
}
