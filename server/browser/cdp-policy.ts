import type { CdpMessage } from './cdp-pipe';

/**
 * What an account may ask of its own browser over the relayed DevTools protocol. The browser runs as the
 * service's user on the service's machine, so commands that read or write the machine's files, open ports,
 * load code from disk or hand the protocol to a page are refused; downloads land in the session's own folder.
 */
export type CdpVerdict = { allowed: true; message: CdpMessage } | { allowed: false; reason: string };

const REFUSED_METHODS: Record<string, string> = {
  'Browser.executeBrowserCommand': 'it runs browser commands outside any page',
  'Browser.getBrowserCommandLine': 'it shows the service machine’s command line',
  'DOM.setFileInputFiles': 'it reads files from the service’s machine',
  'Page.handleFileChooser': 'it reads files from the service’s machine',
  'Target.exposeDevToolsProtocol': 'it would give a page the DevTools protocol',
  'Target.setRemoteLocations': 'it makes the browser connect to other machines',
};

const REFUSED_DOMAINS: Record<string, string> = {
  Extensions: 'it loads extensions from the service’s disk',
  PWA: 'it opens files from the service’s machine',
  Tethering: 'it opens ports on the service’s machine',
};

/** Schemes a command may name: web pages, their blobs and data, and blank pages; never file: or chrome:. */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:', 'about:', 'data:', 'blob:']);

const DOWNLOAD_METHODS = new Set(['Browser.setDownloadBehavior', 'Page.setDownloadBehavior']);

export function checkCdpCommand(message: CdpMessage, downloadDir: string): CdpVerdict {
  const method = message.method ?? '';
  const refusedWhy = REFUSED_METHODS[method] ?? REFUSED_DOMAINS[method.split('.')[0] ?? ''];
  if (refusedWhy) return refused(method, refusedWhy);
  const params = message.params ?? {};
  if (
    method === 'Target.createBrowserContext' &&
    (params.proxyServer ?? params.proxyBypassList) !== undefined
  )
    return {
      allowed: false,
      reason: `${method} may not set a proxy on this service: a session's traffic goes through its own relay.`,
    };
  if (method === 'Input.dispatchDragEvent' && hasFiles(params.data))
    return refused(method, 'dragging files reads them from the service’s machine');
  for (const [key, value] of Object.entries(params)) {
    if (/url$/i.test(key) && typeof value === 'string' && !isAllowedUrl(value))
      return {
        allowed: false,
        reason: `${method} may not open ${schemeOf(value)} addresses on this service.`,
      };
  }
  if (DOWNLOAD_METHODS.has(method) && params.behavior !== 'deny') {
    // "default" would mean the service user's own Downloads folder; a file is always saved under its id, which
    // the session's download records know it by (a page's name is never a path on the service's disk).
    return {
      allowed: true,
      message: { ...message, params: { ...params, behavior: 'allowAndName', downloadPath: downloadDir } },
    };
  }
  return { allowed: true, message };
}

function refused(method: string, why: string): CdpVerdict {
  return { allowed: false, reason: `${method} is not available on this service: ${why}.` };
}

function hasFiles(data: unknown): boolean {
  const files = (data as { files?: unknown } | undefined)?.files;
  return Array.isArray(files) && files.length > 0;
}

export function isAllowedUrl(text: string): boolean {
  if (text === '') return true;
  const scheme = schemeOf(text);
  return scheme !== null && ALLOWED_SCHEMES.has(scheme);
}

function schemeOf(text: string): string | null {
  try {
    return new URL(text).protocol;
  } catch {
    return null;
  }
}
