import { t } from '../lib/i18n';
import { firstPairs } from './bulk-rules';

/** The first pasted lines beside what each goes to, as the person will find them. */
export function LinePreview({ names, lines }: { names: string[]; lines: string[] }) {
  const pairs = firstPairs(names, lines);
  if (pairs.length === 0) return null;
  return (
    <figure class="muted">
      <figcaption>{t('bulkProxyPreview')}</figcaption>
      <ol>
        {pairs.map(([name, line]) => (
          <li key={name + line}>
            {name} ← <code>{line}</code>
          </li>
        ))}
      </ol>
    </figure>
  );
}
