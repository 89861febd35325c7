import { describe, expect, it } from 'vitest';
import { proxyLine } from '../../../server/mcp/compact';
import { proxy } from '../../unit/api/fixtures';

describe('list_proxies, a line per proxy', () => {
  it('says how many profiles use it and how its last check went, never the password', () => {
    expect(proxyLine(proxy)).toBe('prx_1 · "Office" · socks5://u@1.2.3.4:1080 · used by 0 · never checked');
    const checked = {
      ...proxy,
      used_by: 4,
      last_check: { ok: false, reason: 'Refused.', took_ms: 3, checked_at: '2026-11-27T13:05:00.000Z' },
    };
    expect(proxyLine(checked)).toBe(
      'prx_1 · "Office" · socks5://u@1.2.3.4:1080 · used by 4 · fails (checked 2026-11-27 13:05 UTC)',
    );
  });
});
