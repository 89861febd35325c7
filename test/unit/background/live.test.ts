import { beforeEach, describe, expect, it } from 'vitest';
import type { Inbox } from '../../../entrypoints/background/inbox';
import { applyEvent } from '../../../entrypoints/background/live';
import type { Sessions } from '../../../entrypoints/background/sessions';
import type { Watcher } from '../../../entrypoints/background/watcher';
import type { ServiceEvent } from '../../../lib/api/schemas/events';
import { cachedProxies } from '../../../lib/storage';
import { proxy } from '../popup/harness';
import { installBrowser } from './browser-stubs';

const parts = { sessions: {} as Sessions, watcher: {} as Watcher, inbox: {} as Inbox };
const apply = (type: ServiceEvent['type'], data: object) =>
  applyEvent({ id: '1', type, created_at: '2026-11-27T17:00:00.000Z', data } as ServiceEvent, parts);
const cachedNames = async () => (await cachedProxies.getValue())?.data.map(({ name }) => name);

beforeEach(() => {
  installBrowser();
});

describe('the service’s word on proxies', () => {
  it('keeps the cached list as the service says: made first, changed in place, deleted gone', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    // Made elsewhere (an agent, a list pasted for a selection): the profiles' rows name it.
    await apply('proxy.created', proxy('prx_2', 'pat@10.0.0.2:3128'));
    expect(await cachedNames()).toEqual(['pat@10.0.0.2:3128', 'Office']);
    await apply('proxy.updated', proxy('prx_1', 'Home'));
    expect(await cachedNames()).toEqual(['pat@10.0.0.2:3128', 'Home']);
    await apply('proxy.deleted', { id: 'prx_2' });
    expect(await cachedNames()).toEqual(['Home']);
    expect((await cachedProxies.getValue())?.savedAt).toBe(1);
  });

  it('leaves a list never read to be read whole', async () => {
    await apply('proxy.created', proxy('prx_2', 'pat@10.0.0.2:3128'));
    expect(await cachedProxies.getValue()).toBeNull();
  });
});
