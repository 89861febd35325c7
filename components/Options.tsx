import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { connection, type Preferences, preferences } from '../lib/storage';
import { AgentSetup } from './AgentSetup';
import { ConnectForm } from './ConnectForm';
import { useItem } from './hooks';
import { Outcome } from './Outcome';
import { Shortcuts } from './Shortcuts';

const SHORTCUTS_PAGE = 'chrome://extensions/shortcuts';

/** Opens the browser's page of extension shortcuts: Firefox has a call for it, Chromium a page tabs may open. */
function openShortcuts(event: Event) {
  event.preventDefault();
  const { openShortcutSettings } = browser.commands as { openShortcutSettings?: () => Promise<void> };
  if (openShortcutSettings) openShortcutSettings();
  else browser.tabs.create({ url: SHORTCUTS_PAGE });
}

/** The options page: the connection, session defaults, notifications, AI agents, shortcuts and the version. */
export function Options() {
  const saved = useItem(connection);
  const prefs = useItem(preferences);
  const [replacing, setReplacing] = useState(false);
  /** What the key just connected reached, said where the form was. */
  const [connected, setConnected] = useState('');
  if (!saved || !prefs) return null;
  const check = (name: keyof Preferences, label: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={prefs[name]}
        onChange={(event) =>
          connector.send({ type: 'preference.set', name, value: event.currentTarget.checked })
        }
      />
      {label}
    </label>
  );
  return (
    <main class="options stack">
      <h1>{t('optionsTitle')}</h1>
      <section class="stack">
        <h2>{t('connectionHeading')}</h2>
        {saved.apiKey && !replacing ? (
          <>
            {connected && <Outcome text={connected} />}
            <p>{t('serviceAt', saved.serviceUrl)}</p>
            <p>{t('keyMasked', `${saved.apiKey.slice(0, 12)}…`)}</p>
            <div class="bar">
              <button type="button" onClick={() => setReplacing(true)}>
                {t('replaceKey')}
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => connector.send({ type: 'connection.forgetKey' })}
              >
                {t('forgetKey')}
              </button>
            </div>
          </>
        ) : (
          <ConnectForm
            serviceUrl={saved.serviceUrl}
            keptKey={saved.apiKey}
            onDone={(sentence) => {
              setConnected(sentence);
              setReplacing(false);
            }}
          />
        )}
      </section>
      <section class="stack">
        <h2>{t('sessionDefaults')}</h2>
        {check('headless', t('headlessOption'))}
        <p class="muted">{t('noDisplayNote')}</p>
      </section>
      <section class="stack">
        <h2>{t('notificationsHeading')}</h2>
        {check('notifyRuns', t('notifyRunsOption'))}
        {check('notifySessionExits', t('notifySessionExitsOption'))}
      </section>
      <AgentSetup serviceUrl={saved.serviceUrl} apiKey={saved.apiKey} />
      <section class="stack">
        <h2>{t('shortcutsHeading')}</h2>
        <p>
          {t('shortcutsText')}{' '}
          <a href={SHORTCUTS_PAGE} onClick={openShortcuts}>
            {t('shortcutsLink')}
          </a>
        </p>
        <Shortcuts />
      </section>
      <p class="muted">{t('version', browser.runtime.getManifest().version)}</p>
    </main>
  );
}
