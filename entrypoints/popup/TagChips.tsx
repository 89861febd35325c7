import { t } from '../../lib/i18n';

/**
 * The tags of the profiles listed, each a button that narrows the list to it; the tag in force is pressed, and
 * pressing it again shows every tag.
 */
export function TagChips({
  tags,
  active,
  onPick,
}: {
  tags: string[];
  active: string | undefined;
  onPick: (tag: string | undefined) => void;
}) {
  const shown = [...new Set([...(active ? [active] : []), ...tags])].sort((a, b) => a.localeCompare(b));
  if (shown.length === 0) return null;
  return (
    <fieldset class="bar chips" aria-label={t('tagChips')}>
      {shown.map((tag) => (
        <button
          key={tag}
          type="button"
          class="tag"
          aria-pressed={tag === active}
          onClick={() => onPick(tag === active ? undefined : tag)}
        >
          #{tag}
        </button>
      ))}
    </fieldset>
  );
}
