import { readFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Id } from '../../lib/api/schemas/common';
import { z } from '../../lib/api/zod';
import { PageProblem } from '../core/domain-errors';
import { downloadsOfSession, openSessionDownload } from '../downloads/session-downloads';
import { downloadLine } from '../pages/page-downloads';
import { bytes } from '../pages/sentences';
import { sessionOf } from '../sessions/session-of';
import { addTool, type ToolContext } from './tool-kit';

/** The largest file an answer embeds; larger ones are fetched from the API. */
export const MAX_EMBEDDED_DOWNLOAD_BYTES = 2 * 2 ** 20;

/** A type whose bytes an answer carries as text rather than base64. */
const TEXT_TYPE = /^text\/|^application\/(json|xml)$/;

/** A session's downloads, listed or one read back, as GET /v1/sessions/:id/downloads[/:fileId] answers them. */
export function addDownloadTools(server: McpServer, ctx: ToolContext): void {
  const { deps, origin } = ctx;
  addTool(
    server,
    ctx,
    'session_downloads',
    {
      acts: 'listSessionDownloads',
      title: 'List or read downloads',
      description: `A session’s downloads; file_id: that file (${bytes(MAX_EMBEDDED_DOWNLOAD_BYTES)} at most).`,
      input: z.object({ session_id: Id, file_id: z.optional(Id) }),
      annotations: { readOnlyHint: true },
    },
    async ({ session_id, file_id }) => {
      const session = await sessionOf(deps.db, ctx.account, session_id);
      if (file_id === undefined) {
        const downloads = await downloadsOfSession(deps.config.dataDir, session);
        const heading = `${downloads.length} download${downloads.length === 1 ? '' : 's'}.`;
        return { text: [heading, ...downloads.map(downloadLine)].join('\n') };
      }
      const file = await openSessionDownload(deps.config.dataDir, session, file_id);
      const uri = `${origin}/v1/sessions/${session_id}/downloads/${file.download.id}`;
      if (file.download.size > MAX_EMBEDDED_DOWNLOAD_BYTES)
        throw new PageProblem(
          `${JSON.stringify(file.download.name)} is ${bytes(file.download.size)}, over the ${bytes(MAX_EMBEDDED_DOWNLOAD_BYTES)} an answer may carry; fetch it with the API key from ${uri}.`,
        );
      const content = await readFile(file.path);
      const mimeType = file.download.content_type;
      const resource = TEXT_TYPE.test(mimeType)
        ? { uri, mimeType, text: content.toString('utf8') }
        : { uri, mimeType, blob: content.toString('base64') };
      return {
        content: [
          { type: 'text', text: `${JSON.stringify(file.download.name)}, ${bytes(file.download.size)}.` },
          { type: 'resource', resource },
        ],
      };
    },
  );
}
