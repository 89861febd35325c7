import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { putFirst, refreshList } from '../../../entrypoints/background/lists';
import { createSessions } from '../../../entrypoints/background/sessions';
import type { ApiClient } from '../../../lib/api/client';
import type { ProxyConfig } from '../../../lib/api/schemas/proxies';
import { cachedProxies, cachedSessions } from '../../../lib/storage';
import { proxy, session } from '../popup/harness';

beforeEach(() => fakeBrowser.reset());

/** A promise the test settles when it chooses. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('a list read while a change lands', () => {
  it('does not put back a proxy’s old name that a save answered while the list was on its way', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: 1 });
    let reads = 0;
    const held = gate();
    // The first read is taken before the save (it says "Office") and answers after it; the second after.
    const reading = refreshList(cachedProxies, async () => {
      if (reads++ === 0) {
        await held.opened;
        return { data: [proxy('prx_1', 'Office')] };
      }
      return { data: [proxy('prx_1', 'Home')] };
    });
    await putFirst(cachedProxies, Promise.resolve(proxy('prx_1', 'Home')));
    held.open();
    await reading;
    expect((await cachedProxies.getValue())?.data.map(({ name }) => name)).toEqual(['Home']);
    expect(reads).toBe(2);
  });

  it('saves the list after two more reads when changes keep landing, not never', async () => {
    let reads = 0;
    const reading = refreshList<ProxyConfig>(cachedProxies, async () => {
      reads++;
      await putFirst(cachedProxies, Promise.resolve(proxy(`prx_${reads}`, 'Busy')));
      return { data: [proxy('prx_listed', 'Listed')] };
    });
    await reading;
    expect(reads).toBe(3);
    expect((await cachedProxies.getValue())?.data.map(({ id }) => id)).toEqual(['prx_listed']);
  });

  it('does not bring back a session stopped while the running ones were read', async () => {
    const running = session('ses_1', 'prf_1');
    await cachedSessions.setValue({ data: [running], savedAt: 1 });
    const held = gate();
    let reads = 0;
    const client = {
      listSessions: async () => {
        if (reads++ === 0) {
          await held.opened;
          return { data: [running], next_cursor: null };
        }
        return { data: [], next_cursor: null };
      },
      getSession: async () => ({ ...running, status: 'stopped', stop_reason: 'user' }),
      stopSession: async () => ({ ...running, status: 'stopped', stop_reason: 'user' }),
    } as unknown as ApiClient;
    const sessions = createSessions({ api: async () => client, now: () => 5, onExited: async () => {} });
    const reconciling = sessions.reconcile();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await sessions.stop('prf_1');
    held.open();
    expect(await reconciling).toEqual([]);
    expect((await cachedSessions.getValue())?.data).toEqual([]);
  });
});
