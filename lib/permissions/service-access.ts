import { browser } from 'wxt/browser';

/**
 * The host permission that covers a service address, e.g. `https://pilot.example.com/*` (match patterns
 * leave the port out: any port). Null for an address that is not http(s).
 */
export function servicePermissionPattern(serviceUrl: string): string | null {
  if (!URL.canParse(serviceUrl)) return null;
  const { protocol, hostname } = new URL(serviceUrl);
  return protocol === 'http:' || protocol === 'https:' ? `${protocol}//${hostname}/*` : null;
}

/**
 * Asks the person to let the extension reach the service at this address. The local service
 * (127.0.0.1, localhost) is granted by the manifest, so this resolves true without asking; any other origin is
 * one of the manifest's optional host permissions. Call it directly from the click that saves the address,
 * before any `await`: Firefox only asks during the user's gesture.
 */
export function requestServiceAccess(serviceUrl: string): Promise<boolean> {
  const pattern = servicePermissionPattern(serviceUrl);
  if (!pattern) return Promise.resolve(false);
  return browser.permissions.request({ origins: [pattern] });
}

/** Whether the extension may reach the service at this address now. */
export function hasServiceAccess(serviceUrl: string): Promise<boolean> {
  const pattern = servicePermissionPattern(serviceUrl);
  return pattern ? browser.permissions.contains({ origins: [pattern] }) : Promise.resolve(false);
}

/**
 * Gives back the access asked for a service the person has left for another one, so the extension keeps only
 * the host it uses. The manifest's own hosts (127.0.0.1, localhost) are not optional: they stay.
 */
export async function releaseServiceAccess(previousUrl: string, currentUrl: string): Promise<void> {
  const previous = servicePermissionPattern(previousUrl);
  if (!previous || previous === servicePermissionPattern(currentUrl)) return;
  if (browser.runtime.getManifest().host_permissions?.includes(previous)) return;
  await browser.permissions.remove({ origins: [previous] });
}
