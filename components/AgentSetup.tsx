import { useState } from 'preact/hooks';
import { AGENT_CLIENTS, type AgentClient, agentConfig, mcpAddress } from '../lib/agent-config';
import { t } from '../lib/i18n';
import { useCopy } from './hooks';

const CLIENT_NAMES: Record<AgentClient, string> = {
  'claude-code': 'Claude Code',
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
};

/** About the characters a line of the configuration box holds before it wraps. */
const BOX_COLUMNS = 60;

/** Rows enough for the whole text, its long lines wrapped (a one-line command is longer than the box is wide). */
const rowsFor = (text: string) =>
  text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / BOX_COLUMNS)), 0);

/** Selects a read-only field's text on focus, for copying by hand. */
const selectAll = (event: FocusEvent) => (event.currentTarget as HTMLInputElement).select();

/**
 * How to connect an AI agent over MCP: the service's MCP address and a configuration per client, written with a
 * placeholder for the key until the person asks for theirs to be put in.
 */
export function AgentSetup({ serviceUrl, apiKey }: { serviceUrl: string; apiKey: string | null }) {
  const [client, setClient] = useState<AgentClient>('claude-code');
  const [withKey, setWithKey] = useState(false);
  const { copied, copy } = useCopy();
  const config = agentConfig(client, serviceUrl, withKey ? apiKey : null);
  return (
    <section class="stack">
      <h2>{t('agentsHeading')}</h2>
      <p>{t('agentsText')}</p>
      <label class="field">
        {t('mcpAddress')}
        <input class="address" readOnly value={mcpAddress(serviceUrl)} onFocus={selectAll} />
      </label>
      <label class="field">
        {t('agentClient')}
        <select value={client} onChange={(event) => setClient(event.currentTarget.value as AgentClient)}>
          {AGENT_CLIENTS.map((name) => (
            <option key={name} value={name}>
              {CLIENT_NAMES[name]}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        {t('agentConfig', CLIENT_NAMES[client])}
        <textarea class="code" readOnly rows={rowsFor(config)} value={config} onFocus={selectAll} />
      </label>
      <div class="bar">
        {apiKey && (
          <button type="button" aria-pressed={withKey} onClick={() => setWithKey(!withKey)}>
            {t(withKey ? 'agentHideKey' : 'agentShowKey')}
          </button>
        )}
        <button type="button" onClick={() => copy(config)}>
          {t(copied ? 'copied' : 'agentCopy')}
        </button>
      </div>
      {client === 'claude-desktop' && <p class="muted">{t('agentDesktopFolder')}</p>}
      {!withKey && <p class="muted">{t(apiKey ? 'agentKeyLeftOut' : 'agentKeyLeftOutUnconnected')}</p>}
    </section>
  );
}
