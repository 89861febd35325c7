import type { CdpSession } from './cdp-session';

/** The longest address the bar sends (the browser's own limit is far above what a person types). */
export const MAX_ADDRESS_LENGTH = 2048;

interface History {
  currentIndex: number;
  entries: { id: number; url: string }[];
}

/**
 * What a person typed into the address bar, as the address to open: `example.com` means https://example.com.
 * Null for an address that is not http or https (no file:, javascript:, chrome: or data: from the bar).
 */
export function addressOf(typed: string): URL | null {
  const text = typed.trim();
  const withScheme =
    /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/]+:\d+(\/|$)/.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The controls of a controlling viewer's bar, on the tab it watches: open an address, go back or forward,
 * reload. The browser's requests pass the session's egress policy as every other request of it does; a refused
 * address leaves the tab on the page it was on, and the answer says why.
 */
export function tabControls(cdp: CdpSession, egressRefusalOf: (host: string) => string | null) {
  const history = (tab: string) =>
    cdp.send('Page.getNavigationHistory', {}, tab) as Promise<unknown> as Promise<History>;

  /** Goes back to the entry the tab was on, when a refused navigation left it on an error page. */
  async function returnTo(tab: string, before: History): Promise<void> {
    const was = before.entries[before.currentIndex];
    const now = await history(tab);
    if (!was || now.entries[now.currentIndex]?.id === was.id) return;
    if (now.entries.some((entry) => entry.id === was.id))
      await cdp.send('Page.navigateToHistoryEntry', { entryId: was.id }, tab);
    else await cdp.send('Page.navigate', { url: was.url }, tab);
  }

  return {
    /** Opens `typed` in the tab: null when it opened, else the sentence that says why not. */
    async open(tab: string, typed: string): Promise<string | null> {
      const url = addressOf(typed);
      if (url === null)
        return `“${typed.slice(0, 80)}” is not a web address; type one that starts with http:// or https://.`;
      const before = await history(tab);
      const { errorText } = (await cdp.send('Page.navigate', { url: url.href }, tab)) as {
        errorText?: string;
      };
      const refusal = egressRefusalOf(url.hostname);
      if (!errorText && refusal === null) return null;
      await returnTo(tab, before).catch(() => {});
      return refusal ?? `${url.host} could not be opened (${errorText}).`;
    },
    /** One step back (-1) or forward (1) in the tab's history, if there is one that way. */
    async go(tab: string, step: -1 | 1): Promise<void> {
      const { currentIndex, entries } = await history(tab);
      const entry = entries[currentIndex + step];
      if (entry) await cdp.send('Page.navigateToHistoryEntry', { entryId: entry.id }, tab);
    },
    reload: (tab: string) => cdp.send('Page.reload', {}, tab).then(() => {}),
  };
}
