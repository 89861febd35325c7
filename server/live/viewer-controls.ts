import { setTimeout as sleep } from 'node:timers/promises';
import type { CdpSession } from './cdp-session';

/** How long a refused navigation's error page is waited for: 20 × 100 ms. */
const SETTLE_TRIES = 20;
const SETTLE_STEP_MS = 100;

/** The longest address the bar sends (the browser's own limit is far above what a person types). */
export const MAX_ADDRESS_LENGTH = 2048;

interface History {
  currentIndex: number;
  entries: { id: number; url: string }[];
}

/** A host a person runs on their own machine or network, which serves plain http far more often than https. */
const LOCAL_HOST =
  /^(localhost|[^.]+|.+\.(localhost|local|internal|lan|home\.arpa)|\d+\.\d+\.\d+\.\d+|\[[\d:a-f.]+\])$/i;

/** What `Page.navigate` answers when https is not served there: then a typed address is tried over http. */
const NO_HTTPS =
  /^net::ERR_(SSL_|CERT_|CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|EMPTY_RESPONSE)/;

/**
 * What a person typed into the address bar, as the addresses to try in turn. With a scheme, that address. Without
 * one, as a browser's address bar takes it: `example.com` is https://example.com, then http:// should https not be
 * served there; a local host (`localhost:3000`, `192.168.1.20`, `printer.local`, `intranet`) is http://. Empty
 * for an address that is not http or https (no file:, javascript:, chrome: or data: from the bar).
 */
export function addressesOf(typed: string): URL[] {
  const text = typed.trim();
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/]+:\d+(\/|$)/.test(text);
  const parse = (address: string) => (URL.canParse(address) ? new URL(address) : null);
  const urls = hasScheme
    ? [parse(text)]
    : LOCAL_HOST.test(parse(`http://${text}`)?.hostname ?? '')
      ? [parse(`http://${text}`)]
      : [parse(`https://${text}`), parse(`http://${text}`)];
  return urls.filter((url): url is URL => url?.protocol === 'http:' || url?.protocol === 'https:');
}

/**
 * The controls of a controlling viewer's bar, on the tab it watches: open an address, go back or forward,
 * reload. The browser's requests pass the session's egress policy as every other request of it does; a refused
 * address leaves the tab on the page it was on, and the answer says why.
 */
export function tabControls(cdp: CdpSession, egressRefusalOf: (host: string) => string | null) {
  const history = (tab: string) =>
    cdp.send('Page.getNavigationHistory', {}, tab) as Promise<unknown> as Promise<History>;

  /** The tab's history once `done` says so, read again a moment at most (mid-navigation it may not answer). */
  async function historyOnce(tab: string, done: (now: History) => boolean): Promise<History | null> {
    for (let tries = 0; tries < SETTLE_TRIES; tries++) {
      const now = await history(tab).catch(() => null);
      if (now && done(now)) return now;
      await sleep(SETTLE_STEP_MS);
    }
    return null;
  }

  /**
   * Goes back to the page the tab was on, when a refused navigation left it on an error page. That page may
   * commit after the navigation's answer (in another renderer, and in the entry's place), so the history is read
   * until it moves, and again until it is back.
   */
  async function returnTo(tab: string, before: History): Promise<void> {
    const was = before.entries[before.currentIndex];
    if (!was) return;
    const moved = ({ entries, currentIndex }: History) =>
      entries[currentIndex]?.id !== was.id || entries[currentIndex]?.url !== was.url;
    const now = await historyOnce(tab, moved);
    if (!now) return;
    const kept = now.entries.find((entry) => entry.id === was.id && entry.url === was.url);
    if (kept) await cdp.send('Page.navigateToHistoryEntry', { entryId: kept.id }, tab);
    else await cdp.send('Page.navigate', { url: was.url }, tab);
    await historyOnce(tab, (back) => !moved(back));
  }

  /** The host of the page the tab is on, as far as it came (the end of a redirect), or null. */
  async function landedHost(tab: string): Promise<string | null> {
    const now = await history(tab).catch(() => null);
    const landed = now?.entries[now.currentIndex]?.url;
    return landed && URL.canParse(landed) ? new URL(landed).hostname : null;
  }

  /**
   * The policy's sentence for the first of `hosts` it refused, each also without a final dot (`localhost.` is
   * `localhost`): the relay answered the browser 403, so the navigation itself did not fail.
   */
  function refusalOfAny(hosts: (string | null)[]): string | null {
    for (const host of hosts.filter((each) => each !== null))
      for (const name of new Set([host, host.replace(/\.$/, '')])) {
        const refusal = egressRefusalOf(name);
        if (refusal !== null) return refusal;
      }
    return null;
  }

  return {
    /** Opens `typed` in the tab: null when it opened, else the sentence that says why not. */
    async open(tab: string, typed: string): Promise<string | null> {
      const urls = addressesOf(typed);
      if (urls.length === 0)
        return `“${typed.slice(0, 80)}” is not a web address; type one that starts with http:// or https://.`;
      const before = await history(tab);
      let failure = '';
      for (const url of urls) {
        const { errorText } = (await cdp.send('Page.navigate', { url: url.href }, tab)) as {
          errorText?: string;
        };
        const refusal = refusalOfAny([url.hostname, await landedHost(tab)]);
        if (!errorText && refusal === null) return null;
        failure = refusal ?? `${url.host} could not be opened (${errorText}).`;
        if (refusal !== null || !NO_HTTPS.test(errorText ?? '')) break;
      }
      await returnTo(tab, before).catch(() => {});
      return failure;
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
