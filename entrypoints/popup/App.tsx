import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { ConnectForm } from '../../components/ConnectForm';
import { useItem } from '../../components/hooks';
import { Outcome } from '../../components/Outcome';
import { quotaText } from '../../components/quota';
import { RowMenu } from '../../components/RowMenu';
import { ServiceDownBanner } from '../../components/ServiceDownBanner';
import { Shortcuts } from '../../components/Shortcuts';
import { noteReply, useSaidByBanner } from '../../components/service-down';
import { t } from '../../lib/i18n';
import { openManager } from '../../lib/manager-tab';
import { connector } from '../../lib/messaging/connector';
import { connection, openRequests, pendingView, plan, quota } from '../../lib/storage';
import { Automation } from './Automation';
import { Profiles } from './Profiles';
import { Proxies } from './Proxies';
import { Requests, RequestsLine } from './Requests';
import { Sessions } from './Sessions';

const VIEWS = ['profiles', 'proxies', 'sessions', 'automation', 'requests'] as const;

/** The location hash, kept current. */
function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const follow = () => setHash(location.hash);
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return hash;
}

export function App() {
  const hash = useHash();
  const saved = useItem(connection);
  const quotaSeen = useItem(quota);
  const key = useItem(plan);
  const waiting = useItem(openRequests)?.length;
  // Set as the key is sent, so that the form stays on screen while the worker saves the key.
  const [connecting, setConnecting] = useState(false);
  /** What a connect just made in this popup reached, said above the first view instead of a screen of its own. */
  const [connected, setConnected] = useState('');
  useEffect(() => {
    // A notification asked for a view (a run, a profile): show it once.
    pendingView.getValue().then((route) => {
      if (!route) return;
      location.hash = route;
      return connector.send({ type: 'pendingView.shown' });
    });
  }, []);
  // The popup opened (or a key was just saved): the worker reconciles the sessions, and with them the profiles'
  // running marks, before anyone looks.
  const apiKey = saved?.apiKey;
  useEffect(() => {
    if (apiKey) connector.send({ type: 'sessions.refresh' }).then(noteReply);
  }, [apiKey]);
  const serviceDown = useSaidByBanner();
  // While the popup is open the worker follows the service's event stream: what changes shows at once.
  useEffect(() => (apiKey ? connector.followEvents() : undefined), [apiKey]);
  if (!saved) return null;

  // Routes: #/<view>, #/runs/<id> (a run in Automation), #/profiles/<id> (a profile).
  const [, route = '', id] = hash.split('/').map(decodeURIComponent);
  if (!saved.apiKey || connecting)
    return (
      <main>
        <h1>{t('extName')}</h1>
        <ConnectForm
          serviceUrl={saved.serviceUrl}
          quotaApart
          onConnecting={() => setConnecting(true)}
          onDone={(sentence) => {
            setConnected(sentence);
            setConnecting(false);
            location.hash = '#/';
          }}
        />
      </main>
    );
  const view = route === 'runs' ? 'automation' : (VIEWS.find((name) => name === route) ?? 'profiles');
  return (
    <>
      <header class="bar">
        <nav aria-label={t('views')}>
          {VIEWS.map((name) => (
            <a key={name} href={`#/${name}`} aria-current={view === name ? 'page' : undefined}>
              {t(name)}
              {name === 'requests' && waiting ? <span class="count"> {waiting}</span> : null}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <h1 class="visually-hidden" tabIndex={-1}>
          {t('viewHeading', t(view))}
        </h1>
        <ServiceDownBanner />
        {view !== 'requests' && <RequestsLine />}
        {connected && <Outcome text={connected} />}
        {view === 'requests' ? (
          <Requests />
        ) : view === 'proxies' ? (
          <Proxies />
        ) : view === 'sessions' ? (
          <Sessions />
        ) : view === 'automation' ? (
          <Automation focus={id} />
        ) : (
          <Profiles focus={id} />
        )}
      </main>
      {/* The workspace, the quota and the menu at the foot: the five views' names take the header's whole width.
      The quota last seen says nothing true while the service is down. */}
      <footer class="bar muted">
        {key?.workspace && (
          <span
            class="workspace"
            title={t('workspaceRoleTitle', key.workspace, key.member?.name ?? '', key.role ?? 'owner')}
          >
            {t('workspaceRole', key.workspace, key.role ?? 'owner')}
          </span>
        )}
        {quotaSeen && !serviceDown && <span role="status">{quotaText(quotaSeen)}</span>}
        <button type="button" class="link" onClick={() => openManager().then(() => close())}>
          {t('openManager')}
        </button>
        <RowMenu label={t('popupMenu')}>
          <strong>{t('shortcutsHeading')}</strong>
          <Shortcuts />
          <button type="button" onClick={() => browser.runtime.openOptionsPage()}>
            {t('settings')}
          </button>
        </RowMenu>
      </footer>
    </>
  );
}
