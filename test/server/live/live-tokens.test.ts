import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIVE_TOKEN_TTL_MS, LiveTokens } from '../../../server/live/live-tokens';

describe('LiveTokens', () => {
  const key = randomBytes(32);

  it('opens the page and the socket of the session and mode it was minted for', () => {
    const tokens = new LiveTokens(key);
    const control = tokens.path('ses_one', 'control');
    const view = tokens.path('ses_one', 'view');
    const link = (path: string) => path.split('.').at(-1);
    expect(tokens.addressOf(control)).toEqual({
      sessionId: 'ses_one',
      mode: 'control',
      socket: false,
      link: link(control),
    });
    expect(tokens.addressOf(`${view}/socket`)).toEqual({
      sessionId: 'ses_one',
      mode: 'view',
      socket: true,
      link: link(view),
    });
  });

  it('refuses another session’s, another key’s, a view-only one made to control, and malformed addresses', () => {
    const tokens = new LiveTokens(key);
    const control = tokens.path('ses_one', 'control');
    const view = tokens.path('ses_one', 'view');
    expect(tokens.addressOf(control.replace('ses_one', 'ses_two'))).toBeNull();
    expect(new LiveTokens(randomBytes(32)).addressOf(control)).toBeNull();
    expect(tokens.addressOf(view.replace('/v.', '/c.'))).toBeNull();
    expect(tokens.addressOf(`${control}/other`)).toBeNull();
    expect(tokens.addressOf(control.slice(0, -1))).toBeNull();
  });

  it('refuses an address once its time has passed', () => {
    let now = Date.now();
    const tokens = new LiveTokens(key, () => now);
    const path = tokens.path('ses_one', 'control');
    now += LIVE_TOKEN_TTL_MS - 1000;
    expect(tokens.addressOf(path)).not.toBeNull();
    now += 1000;
    expect(tokens.addressOf(path)).toBeNull();
  });
});
