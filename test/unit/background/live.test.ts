import { beforeEach, describe, expect, it } from 'vitest';
import { inTurn } from '../../../entrypoints/background/in-turn';
import type { Inbox } from '../../../entrypoints/background/inbox';
import { applyEvent } from '../../../entrypoints/background/live';
import type { Sessions } from '../../../entrypoints/background/sessions';
import type { Watcher } from '../../../entrypoints/background/watcher';
import type { ServiceEvent } from '../../../lib/api/schemas/events';
import { cachedProxies } from '../../../lib/storage';
import { proxy } from '../popup/harness';
import { installBrowser } from './browser-stubs';

const parts = { sessions: {} as Sessions, watcher: {} as Watcher, inbox: {} as Inbox };
const event = (type: ServiceEvent['type'], data: object) =>
  ({ id: '1', type, created_at: '2026-11-27T17:00:00.000Z', data }) as ServiceEvent;
/** Applies the events as the stream does, then waits for the worker's writes queued meanwhile. */
async function apply(...events: [ServiceEvent['type'], object][]) {
  for (const [type, data] of events) await applyEvent(event(type, data), parts);
  await inTurn(async () => {});
}
const cachedNames = async () => (await cachedProxies.getValue())?.data.map(({ name }) => name);

beforeEach(() => {
  installBrowser();
});

describe('the service’s word on proxies', () => {
  it('keeps the cached list as the service says: made first, changed in place, deleted gone', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    // Made elsewhere (an agent, a list pasted for a selection): the profiles' rows name it.
    await apply(['proxy.created', proxy('prx_2', 'pat@10.0.0.2:3128')]);
    expect(await cachedNames()).toEqual(['pat@10.0.0.2:3128', 'Office']);
    await apply(['proxy.updated', proxy('prx_1', 'Home')]);
    expect(await cachedNames()).toEqual(['pat@10.0.0.2:3128', 'Home']);
    await apply(['proxy.deleted', { id: 'prx_2' }]);
    expect(await cachedNames()).toEqual(['Home']);
    // A change to one the list does not hold (past its page) does not put it on top.
    await apply(['proxy.updated', proxy('prx_far', 'Far')]);
    expect(await cachedNames()).toEqual(['Home']);
    // Made and renamed before the list was written: new, by its new name.
    await apply(['proxy.created', proxy('prx_3', 'Draft')], ['proxy.updated', proxy('prx_3', 'Berlin')]);
    expect(await cachedNames()).toEqual(['Berlin', 'Home']);
    expect((await cachedProxies.getValue())?.savedAt).toBe(1);
  });

  it('writes a burst in far fewer writes than proxies, the newest first, the list a page long', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_old', 'Office')], savedAt: 1 });
    let writes = 0;
    const counting = cachedProxies.watch(() => writes++);
    const made = Array.from({ length: 150 }, (_, n) => proxy(`prx_${n}`, `user${n}@10.0.0.1:3128`));
    await apply(...made.map((one): [ServiceEvent['type'], object] => ['proxy.created', one]));
    counting();
    const names = await cachedNames();
    expect(names).toHaveLength(100);
    expect(names?.slice(0, 2)).toEqual(['user149@10.0.0.1:3128', 'user148@10.0.0.1:3128']);
    // Far fewer than one a proxy: what came while a write waited goes with it. (How many depends on how many
    // microtasks a read of fakeBrowser's storage takes: 15 here, 9 with WXT's storage items.)
    expect(writes).toBeLessThan(made.length / 5);
  });

  it('leaves a list never read to be read whole', async () => {
    await apply(['proxy.created', proxy('prx_2', 'pat@10.0.0.2:3128')]);
    expect(await cachedProxies.getValue()).toBeNull();
  });
});
