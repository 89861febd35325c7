/**
 * Tool arguments, tried as the attack: U+0000 in a name, a note, a tag, a search or an id reached the database
 * ("Something went wrong"), and 3,000 empty cookies to set_cookies gave a 321 KB answer listing 9,000 errors.
 * Arguments get the HTTP routes' refusals: U+0000 named, and the first field errors with how many more.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../../../lib/api/issues';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { call, connect, httpTransport, ok, textOf } from '../../support/mcp-client';

const NUL = '\u0000';

let service: TestService;
let client: Client;

beforeAll(async () => {
  service = await startServiceInProcess();
  client = await connect(httpTransport(service.baseUrl, await service.createKey('enterprise')));
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

describe('U+0000 in tool arguments', { timeout: 60_000 }, () => {
  it('is refused with a sentence naming the field, in every kind of argument, and nothing is stored', async () => {
    const profile = await ok(client, 'create_profile', { name: 'Shop' });
    const cases: [string, Record<string, unknown>, string][] = [
      ['create_profile', { name: `Sh${NUL}op` }, 'name'],
      ['create_profile', { name: 'Shop', notes: `a${NUL}note` }, 'notes'],
      ['create_profile', { name: 'Shop', tags: ['eu', `e${NUL}u`] }, 'tags[1]'],
      ['list_profiles', { q: `S${NUL}` }, 'q'],
      ['list_profiles', { tag: `e${NUL}u` }, 'tag'],
      ['update_profile', { id: `prf_${NUL}`, name: 'Other' }, 'id'],
      ['update_profile', { id: profile.id, name: `Ot${NUL}her` }, 'name'],
      ['create_proxy', { name: `P${NUL}`, scheme: 'http', host: '127.0.0.1', port: 3128 }, 'name'],
      ['start_session', { profile_id: `prf_${NUL}` }, 'profile_id'],
    ];
    for (const [tool, args, field] of cases) {
      const result = await call(client, tool, args);
      const text = textOf(result);
      expect({ tool, field, isError: result.isError, text }).toEqual({
        tool,
        field,
        isError: true,
        text: expect.stringContaining(`${field}: must not contain U+0000 (the NUL character)`),
      });
    }
    const listed = await ok(client, 'list_profiles', { detail: true });
    expect((listed.data as { name: string }[]).map((item) => item.name)).toEqual(['Shop']);
  });
});

describe('a call with thousands of invalid values', { timeout: 60_000 }, () => {
  it('answers the first field errors and how many more, in a few KB', async () => {
    const profile = await ok(client, 'create_profile', { name: 'Cookies' });
    const cookies = Array.from({ length: 3000 }, () => ({}));
    const result = await call(client, 'set_cookies', { profile_id: profile.id, cookies });
    const text = textOf(result);
    expect(result.isError).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024);
    expect(text.match(/^- cookies\[/gm)).toHaveLength(MAX_FIELD_ERRORS);
    expect(text).toMatch(/^- and \d+ more$/m);
    const more = Number(/^- and (\d+) more$/m.exec(text)?.[1]);
    expect(more + MAX_FIELD_ERRORS).toBeGreaterThanOrEqual(6000);
  });
});
