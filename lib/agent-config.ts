/** The MCP clients the options page writes a configuration for. */
export const AGENT_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const;
export type AgentClient = (typeof AGENT_CLIENTS)[number];

/** Stands in for the key until the person asks to see the configuration with theirs. */
export const KEY_PLACEHOLDER = '<your API key>';

/** Stands in for the folder of the person's copy of the project, which the extension cannot know. */
export const PROJECT_PLACEHOLDER = '<folder of your profile-pilot copy>';

/** Where the service answers MCP: /v1/mcp beside the rest of its API. */
export function mcpAddress(serviceUrl: string): string {
  return `${serviceUrl.replace(/\/+$/, '')}/v1/mcp`;
}

/**
 * What to paste into each client to give an agent this service's tools. Claude Desktop's file takes local
 * (stdio) servers only: it runs the project's relay, `npm run mcp`, from a copy of this repository.
 */
export function agentConfig(client: AgentClient, serviceUrl: string, key: string | null): string {
  const url = mcpAddress(serviceUrl);
  const apiKey = key ?? KEY_PLACEHOLDER;
  const headers = { Authorization: `Bearer ${apiKey}` };
  const json = (value: object) => JSON.stringify(value, null, 2);
  switch (client) {
    case 'claude-code':
      return `claude mcp add --transport http profile-pilot ${url} --header "Authorization: Bearer ${apiKey}"`;
    case 'claude-desktop':
      return json({
        mcpServers: {
          'profile-pilot': {
            command: 'npm',
            args: ['--silent', '--prefix', PROJECT_PLACEHOLDER, 'run', 'mcp', '--', '--url', serviceUrl],
            env: { PROFILE_PILOT_KEY: apiKey },
          },
        },
      });
    case 'cursor':
      return json({ mcpServers: { 'profile-pilot': { url, headers } } });
    case 'vscode':
      return json({ servers: { 'profile-pilot': { type: 'http', url, headers } } });
  }
}
