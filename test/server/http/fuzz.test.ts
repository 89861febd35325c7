/**
 * A fuzz of every operation of /v1/openapi.json and every tool /v1/mcp lists: bad types, huge and deep values,
 * U+0000 and invalid UTF-8, in fields, paths, queries and whole bodies. No answer may be a 5xx (nor a tool's
 * "Something went wrong"), and none may be over MAX_ANSWER_BYTES. Seeded: FUZZ_SEED=<n> repeats a run, and a
 * failure names its seed.
 */
import { expect, it } from 'vitest';
import { BAD_BODIES, BAD_PARAMS, BAD_VALUES, seeded } from '../../support/fuzz';
import { serviceSuite } from '../../support/service-suite';

const MAX_ANSWER_BYTES = 64 * 1024;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** How many of the bad values each field gets in one run. */
const VALUES_PER_FIELD = 4;
const CONCURRENCY = 4;

type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[] };
type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
interface Probe {
  label: string;
  method: string;
  path: string;
  body?: Uint8Array | string;
  /** Whether an MCP tool's answer is looked into too. */
  tool?: true;
}

const suite = serviceSuite({ plan: 'enterprise' });
const random = seeded(SEED);

/** The fields a body schema names at its top (or of its items, for a list), $refs followed. */
function fieldsOf(schema: Schema, components: Record<string, Schema>): { fields: string[]; list: boolean } {
  const resolve = (item: Schema): Schema =>
    item.$ref ? (components[item.$ref.split('/').pop() as string] ?? {}) : item;
  const top = resolve(schema);
  const shape = top.items ? resolve(top.items) : top;
  const fields = new Set(Object.keys(shape.properties ?? {}));
  for (const option of shape.oneOf ?? [])
    for (const key of Object.keys(resolve(option).properties ?? {})) fields.add(key);
  return { fields: [...fields], list: Boolean(top.items) };
}

function httpProbes(document: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}): Probe[] {
  const probes: Probe[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    // The event stream stays open by design; MCP is fuzzed by its tools.
    if (template === '/v1/events' || template === '/v1/mcp') continue;
    for (const [method, operation] of Object.entries(operations)) {
      const verb = method.toUpperCase();
      const at = (param: string) => template.replace(/\{[^}]+\}/g, param);
      for (const param of template.includes('{') ? random.pick(BAD_PARAMS, 3) : [])
        probes.push({
          label: `${verb} ${template} path ${param.slice(0, 20)}`,
          method: verb,
          path: at(param),
        });
      for (const { name } of (operation.parameters ?? []).filter((parameter) => parameter.in === 'query')) {
        for (const value of random.pick(BAD_PARAMS, 2))
          probes.push({
            label: `${verb} ${template} ?${name}=${value.slice(0, 20)}`,
            method: verb,
            path: `${at('prf_unknown')}?${name}=${value}`,
          });
      }
      const schema = operation.requestBody?.content['application/json']?.schema;
      if (!schema) continue;
      const { fields, list } = fieldsOf(schema, document.components.schemas);
      for (const field of fields) {
        for (const value of random.pick(BAD_VALUES, VALUES_PER_FIELD)) {
          const body = JSON.stringify(list ? [{ [field]: value }] : { [field]: value });
          probes.push({
            label: `${verb} ${template} ${field}=${preview(value)}`,
            method: verb,
            path: at('prf_unknown'),
            body,
          });
        }
      }
      for (const [index, body] of BAD_BODIES.entries())
        probes.push({
          label: `${verb} ${template} body #${index}`,
          method: verb,
          path: at('prf_unknown'),
          body,
        });
    }
  }
  return probes;
}

function mcpProbes(tools: { name: string; inputSchema: Schema }[]): Probe[] {
  const call = (name: string, args: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const probes: Probe[] = BAD_BODIES.map((body, index) => ({
    label: `mcp body #${index}`,
    method: 'POST',
    path: '/v1/mcp',
    body,
  }));
  for (const tool of tools) {
    for (const field of Object.keys(tool.inputSchema.properties ?? {})) {
      for (const value of random.pick(BAD_VALUES, VALUES_PER_FIELD))
        probes.push({
          label: `mcp ${tool.name} ${field}=${preview(value)}`,
          method: 'POST',
          path: '/v1/mcp',
          body: call(tool.name, { [field]: value }),
          tool: true,
        });
    }
    for (const value of random.pick(BAD_VALUES, 2))
      probes.push({
        label: `mcp ${tool.name} arguments=${preview(value)}`,
        method: 'POST',
        path: '/v1/mcp',
        body: call(tool.name, value),
        tool: true,
      });
  }
  return probes;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 24 ? `${text.slice(0, 24)}… (${text.length})` : text;
}

/** What is wrong with the answer to one probe, or null. */
async function fault(probe: Probe): Promise<string | null> {
  const response = await suite.request(probe.method, probe.path, {
    body: probe.body as BodyInit | undefined,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Origin: suite.service.baseUrl,
    },
  });
  const answer = new Uint8Array(await response.arrayBuffer());
  if (response.status >= 500)
    return `${probe.label}: ${response.status} ${new TextDecoder().decode(answer).slice(0, 300)}`;
  if (answer.byteLength > MAX_ANSWER_BYTES) return `${probe.label}: ${answer.byteLength} bytes`;
  if (probe.tool && new TextDecoder().decode(answer).includes('Something went wrong'))
    return `${probe.label}: ${new TextDecoder().decode(answer).slice(0, 300)}`;
  return null;
}

it('finds no 5xx and no oversized answer in any operation or tool', { timeout: 120_000 }, async () => {
  const started = performance.now();
  const document = await (await fetch(`${suite.service.baseUrl}/v1/openapi.json`)).json();
  const listed = await suite.request('POST', '/v1/mcp', {
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  });
  const { tools } = (await listed.json()).result;
  const probes = [...httpProbes(document), ...mcpProbes(tools)];
  const faults: string[] = [];
  const queue = [...probes];
  const worker = async () => {
    for (let probe = queue.shift(); probe; probe = queue.shift()) {
      const found = await fault(probe).catch((error: unknown) => `${probe?.label}: ${String(error)}`);
      if (found) faults.push(found);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(`fuzz: ${probes.length} requests, seed ${SEED}, ${Math.round(performance.now() - started)} ms`);
  expect(faults, `FUZZ_SEED=${SEED}`).toEqual([]);
});
