import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Chromium writes "<port>\n<browser path>" here once --remote-debugging-port=0 has picked a port. */
function devToolsActivePortFile(userDataDir: string): string {
  return join(userDataDir, 'DevToolsActivePort');
}

export function removeDevToolsActivePort(userDataDir: string): void {
  rmSync(devToolsActivePortFile(userDataDir), { force: true });
}

/**
 * The browser's DevTools WebSocket address as the port file states it, or null while the file is missing
 * or half written. The path carries the browser's own id, so a stale file never reaches another browser:
 * Chromium answers an unknown id with 404.
 */
export function readDevToolsActivePort(userDataDir: string): { port: number; webSocketUrl: string } | null {
  let text: string;
  try {
    text = readFileSync(devToolsActivePortFile(userDataDir), 'utf8');
  } catch {
    return null;
  }
  const [portLine, path] = text.split('\n');
  const port = Number(portLine);
  if (!Number.isInteger(port) || port <= 0 || !path?.startsWith('/devtools/browser/')) return null;
  return { port, webSocketUrl: `ws://127.0.0.1:${port}${path}` };
}

/** The WebSocket URL from /json/version, or null while the endpoint does not answer yet. */
export async function fetchBrowserWebSocketUrl(port: number): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/json/version`, {
      signal: AbortSignal.timeout(2000),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { webSocketDebuggerUrl?: unknown };
    return typeof body.webSocketDebuggerUrl === 'string' ? body.webSocketDebuggerUrl : null;
  } catch {
    return null;
  }
}
