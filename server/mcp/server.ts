import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { checkToolArguments } from './tool-input';
import { registeredTools, type ToolContext } from './tool-kit';
import { addBulkTool } from './tools-bulk';
import { addDownloadTools } from './tools-downloads';
import { addHandoffTools } from './tools-handoff';
import { advertiseTools } from './tools-list';
import { addPageTools } from './tools-page';
import { addProfileTools } from './tools-profiles';
import { addProxyTools } from './tools-proxies';
import { addRunTools } from './tools-runs';
import { addSessionTools } from './tools-sessions';

const INSTRUCTIONS = `profile-pilot manages browser profiles (separate identities: cookies, fingerprint, proxy) and runs a real browser per profile.
To browse: list_profiles or create_profile, then start_session; pass its session id to the browser_* tools.
Read a page with browser_snapshot: actionable elements carry [ref=eN]; click and type by ref; take a new snapshot after the page changes.
What only a person should do (a 2FA code, a consent, a captcha): request_human, which waits for them.
Every tool call but stop_session counts as one request of the account's hourly limit. Stop sessions when done.
Lists answer one line per item; get_profile (or detail: true) gives whole objects.`;

/** An MCP server with every tool, acting for the account of one request. */
export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'profile-pilot', version: '1.0.0' },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  checkToolArguments(server);
  addProfileTools(server, ctx);
  addBulkTool(server, ctx);
  addProxyTools(server, ctx);
  addSessionTools(server, ctx);
  addRunTools(server, ctx);
  addPageTools(server, ctx);
  addDownloadTools(server, ctx);
  addHandoffTools(server, ctx);
  advertiseTools(server, registeredTools(server));
  return server;
}
