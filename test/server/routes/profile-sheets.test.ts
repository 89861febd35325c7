/**
 * A person with a sheet of accounts: POST /v1/profiles/import makes a profile a row and answers each row by its
 * line; GET /v1/profiles/export gives the list back as a sheet, defused for spreadsheets, which another account
 * imports to the same profiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { ProfileImportResult } from '../../../lib/api/schemas/profile-import';
import { apiError, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let send: ReturnType<typeof requester>;

beforeAll(async () => {
  service = await startServiceInProcess();
  const key = await service.createKey('enterprise', 'sheets');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  send = requester(service.baseUrl, key);
});
afterAll(() => service?.close());

const CSV = 'text/csv';
const importSheet = (body: string, type = CSV, headers: Record<string, string> = {}) =>
  send('POST', '/v1/profiles/import', { body, headers: { 'Content-Type': type, ...headers } });

async function imported(body: string, type = CSV): Promise<ProfileImportResult> {
  const answer = await importSheet(body, type);
  expect(answer.status, await answer.clone().text()).toBe(200);
  return (await answer.json()) as ProfileImportResult;
}

async function problemOf(answer: Response): Promise<{ status: number; detail: string }> {
  const { detail } = (await answer.json()) as { detail: string };
  return { status: answer.status, detail };
}

const countOf = async (client: ApiClient, tag: string) =>
  (await client.listProfiles({ tag, total: 'true', limit: 1 })).total;

describe('importing profiles from a sheet', () => {
  it('makes 200 profiles from a CSV in under 10 s, reusing a saved proxy and saving each other one once', async () => {
    const known = await api.createProxy({
      scheme: 'http',
      host: 'known.example',
      port: 8000,
      username: 'u',
      password: 'p',
    });
    const rows = Array.from({ length: 200 }, (_, n) => {
      const proxy = n === 0 ? 'u:p@known.example:8000' : `user${n % 50}:pw@gate.example:${9000 + (n % 50)}`;
      return `Seller ${n + 1},${proxy},"bulk-200;team, eu",note ${n + 1}`;
    });
    const started = performance.now();
    const answer = await imported(`name,proxy,tags,notes\n${rows.join('\n')}\n`);
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(10);
    expect(answer).toMatchObject({ total: 200, created: 200, failed: 0, proxies_created: 50 });
    expect(answer.items[0]).toEqual({
      line: 2,
      ok: true,
      id: expect.stringMatching(/^prf_/),
      name: 'Seller 1',
    });
    const first = await api.getProfile(answer.items[0]?.id as string);
    expect(first).toMatchObject({ proxy_id: known.id, tags: ['bulk-200', 'team, eu'], notes: 'note 1' });
    const [second, fiftyFirst] = [answer.items[1], answer.items[51]].map((item) => item?.id as string);
    expect((await api.getProfile(second as string)).proxy_id).toBe(
      (await api.getProfile(fiftyFirst as string)).proxy_id,
    );
    expect(await countOf(api, 'bulk-200')).toBe(200);
    console.log(`import of 200 rows: ${seconds.toFixed(2)} s`);
  });

  it('answers each bad row by its line and makes the others; NDJSON too', async () => {
    const csv = [
      'notes,name,proxy,tags',
      `,${'x'.repeat(10_240)},,rows-bad`,
      ',Good one,,rows-bad',
      ',Bad proxy,not a proxy at all,rows-bad',
      ',Too few',
    ].join('\r\n');
    const answer = await imported(csv);
    expect(answer).toMatchObject({ total: 4, created: 1, failed: 3 });
    expect(answer.items.map(({ line, ok }) => [line, ok])).toEqual([
      [2, false],
      [3, true],
      [4, false],
      [5, false],
    ]);
    expect(answer.items[0]?.problem?.detail).toBe('Line 2: name: must be at most 100 characters');
    expect(answer.items[2]?.problem?.errors?.[0]?.path).toBe('proxy');
    expect(answer.items[3]?.problem?.detail).toBe('This row has 2 cells where the header has 4.');
    expect(JSON.stringify(answer)).not.toContain('x'.repeat(200));

    const ndjson =
      '{"name":"Json one","tags":["rows-json"]}\n{"name":\n\n{"name":"Json two","tags":["rows-json"],"extra":1}\n';
    const lines = await imported(ndjson, 'application/x-ndjson');
    expect(lines.items.map(({ line, ok }) => [line, ok])).toEqual([
      [1, true],
      [2, false],
      [4, false],
    ]);
    expect(lines.items[1]?.problem?.detail).toMatch(/^This row is not JSON/);
    expect(await countOf(api, 'rows-json')).toBe(1);
  });

  it('refuses a file it cannot read whole, with a sentence, and makes nothing of it', async () => {
    const before = (await api.listProfiles({ total: 'true', limit: 1 })).total;
    const cases: [string, RegExp][] = [
      ['', /The file is empty/],
      ['name,proxy,tags,notes\n', /a header line but no rows/],
      [
        'name,proxy\nFine,\n"Broken,quote\nNext,\n',
        /Line 3: a quoted cell is never closed.*Nothing was imported/,
      ],
      ['title,proxy\nA,\n', /The first line must name the columns/],
      [
        `name\n${Array.from({ length: 10_001 }, (_, n) => `P${n}`).join('\n')}`,
        /holds 10,001 rows; one import takes at most 10,000/,
      ],
    ];
    for (const [body, sentence] of cases) {
      const answer = await problemOf(await importSheet(body));
      expect(answer.status, body.slice(0, 30)).toBe(422);
      expect(answer.detail).toMatch(sentence);
    }
    expect((await problemOf(await importSheet('name\nA', 'application/json'))).status).toBe(415);
    expect((await api.listProfiles({ total: 'true', limit: 1 })).total).toBe(before);
  });

  it('replays a retried import with the same Idempotency-Key instead of making the profiles again', async () => {
    const body = 'name,tags\nOnce a,once\nOnce b,once\n';
    const first = await importSheet(body, CSV, { 'Idempotency-Key': 'sheet-once' });
    const again = await importSheet(body, CSV, { 'Idempotency-Key': 'sheet-once' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await countOf(api, 'once')).toBe(2);
    // The typed client sends the sheet with its type.
    const typed = await api.importProfiles('{"name":"Typed","tags":["once"]}', 'ndjson');
    expect(typed.created).toBe(1);
  });
});

describe('exporting profiles as a sheet', () => {
  it('writes the list’s filter in its order, defusing formulas, as a download that is not sniffed', async () => {
    await imported(
      [
        'name,tags,notes',
        'Beta,export-7,"=HYPERLINK(""http://evil.example"")"',
        'alpha,export-7, +1',
        'Gamma,other,',
      ].join('\n'),
    );
    const answer = await send('GET', '/v1/profiles/export?tag=export-7&sort=name');
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="profiles.csv"');
    expect(await answer.text()).toBe(
      'name,proxy,tags,notes\r\nalpha,,export-7,\' +1\r\nBeta,,export-7,"\'=HYPERLINK(""http://evil.example"")"\r\n',
    );
    const lines = await (await send('GET', '/v1/profiles/export?tag=export-7&format=ndjson')).text();
    expect(
      lines
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).name),
    ).toEqual(['alpha', 'Beta']);
    const refused = await apiError(api.exportProfiles({ format: 'xlsx' as 'csv' }));
    expect(refused.status).toBe(422);
  });

  it('gives another account the same names, tags, notes and proxies through export and import', async () => {
    const rows = Array.from({ length: 260 }, (_, n) =>
      JSON.stringify({
        name: `Moved ${n}`,
        proxy: n % 3 === 0 ? null : `socks5://mover${n % 7}:p%40ss:${n % 2}@move.example:${1000 + (n % 7)}`,
        tags: ['moved', `group-${n % 4}`],
        notes: n % 5 === 0 ? '=not a formula' : `line one\nline "two", ${n}`,
      }),
    );
    expect((await imported(rows.join('\n'), 'application/x-ndjson')).created).toBe(260);
    const other = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    const sheet = await (await api.exportProfiles({ tag: 'moved', sort: 'name', passwords: 'true' })).text();
    expect(sheet.split('\r\n').length).toBeGreaterThan(260);
    expect(sheet).toContain(':p%40ss%3A1@move.example');
    const answer = await other.importProfiles(sheet, 'csv');
    expect(answer).toMatchObject({ created: 260, failed: 0, proxies_created: 14 });
    expect(await (await other.exportProfiles({ sort: 'name', passwords: 'true' })).text()).toBe(sheet);
    const shown = async (client: ApiClient) =>
      (await client.listProfiles({ tag: 'group-1', sort: 'name', limit: 100 })).data.map(
        ({ name, proxy, tags, notes }) => ({
          name,
          proxy,
          tags,
          notes,
        }),
      );
    expect(await shown(other)).toEqual(await shown(api));
  });
});
