import { anonymizeProxy, closeAnonymizedProxy } from 'proxy-chain';
import type { ProxySettings } from './launch';

/** What Chromium's --proxy-server gets, and how to release whatever was opened for it. */
export interface ProxyRoute {
  proxyServer: string;
  close(): Promise<void>;
}

/**
 * Chromium ignores credentials in --proxy-server, so a proxy with a user name goes through a local relay
 * (proxy-chain) that adds them; proxy-chain 3 speaks http, https, socks4 and socks5 upstream.
 * Throws an Error whose message is a sentence when the settings cannot work.
 */
export async function openProxyRoute(proxy: ProxySettings): Promise<ProxyRoute> {
  const address = `${proxy.host}:${proxy.port}`;
  if (proxy.username === null && proxy.password === null) {
    return { proxyServer: `${proxy.scheme}://${address}`, close: async () => {} };
  }
  const username = proxy.username ?? '';
  if ((proxy.scheme === 'http' || proxy.scheme === 'https') && username.includes(':')) {
    throw new Error('The proxy user name contains a colon, which HTTP proxy authentication cannot carry.');
  }
  if (proxy.scheme === 'socks4' && proxy.password !== null) {
    throw new Error('SOCKS4 proxies take a user name but no password; use socks5 for a password.');
  }
  const credentials = `${encodeURIComponent(username)}:${encodeURIComponent(proxy.password ?? '')}`;
  let relayUrl: string;
  try {
    relayUrl = await anonymizeProxy({ url: `${proxy.scheme}://${credentials}@${address}`, port: 0 });
  } catch (error) {
    throw new Error(`The local proxy relay could not start: ${(error as Error).message.replace(/\.$/, '')}.`);
  }
  return {
    proxyServer: relayUrl,
    close: async () => {
      await closeAnonymizedProxy(relayUrl, true);
    },
  };
}
