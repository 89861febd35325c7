import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../lib/i18n';

interface Shortcut {
  name: string;
  description: string;
  keys: string;
}

/** The extension's keyboard shortcuts as the browser has them now (the person may have changed them). */
export function Shortcuts() {
  const [shortcuts, setShortcuts] = useState<Shortcut[]>([]);
  useEffect(() => {
    const { getAll } = browser.commands as { getAll?: typeof browser.commands.getAll };
    getAll?.()
      .then((commands) =>
        setShortcuts(
          commands.map(({ name = '', description, shortcut }) => ({
            name,
            description: description || t('commandOpenPopup'),
            keys: shortcut || t('shortcutNotSet'),
          })),
        ),
      )
      .catch(() => {});
  }, []);
  if (shortcuts.length === 0) return null;
  return (
    <dl class="shortcuts" aria-label={t('shortcutsListLabel')}>
      {shortcuts.map(({ name, description, keys }) => (
        <div key={name}>
          <dt>
            <kbd>{keys}</kbd>
          </dt>
          <dd>{description}</dd>
        </div>
      ))}
    </dl>
  );
}
