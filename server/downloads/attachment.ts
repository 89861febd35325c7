import type { SessionDownload } from '../../lib/api/schemas/downloads';

/**
 * The headers a download's bytes are served with: always an attachment, never sniffed or shown in place, its
 * name quoted in ASCII (anything else replaced) and in full as RFC 5987 UTF-8.
 */
export function attachmentHeaders(download: SessionDownload): Record<string, string> {
  const ascii = download.name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const utf8 = encodeURIComponent(download.name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return {
    'Content-Type': download.content_type,
    'Content-Length': String(download.size),
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  };
}
