import type { ProfileTag } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';

/**
 * The tags of every profile (as the service counts them, most used first), each a button that narrows the list to
 * it and says in its title how many profiles carry it; the tag in force comes first and is pressed, and pressing it
 * again shows every tag. One line that scrolls sideways, so that the rows keep their room.
 */
export function TagChips({
  tags,
  active,
  onPick,
}: {
  tags: ProfileTag[];
  active: string | undefined;
  onPick: (tag: string | undefined) => void;
}) {
  const counted = new Map(tags.map(({ tag, count }) => [tag, count]));
  const shown = [...new Set([...(active ? [active] : []), ...counted.keys()])];
  if (shown.length === 0) return null;
  return (
    <fieldset class="bar chips" aria-label={t('tagChips')}>
      {shown.map((tag) => (
        <button
          key={tag}
          type="button"
          class="tag"
          aria-pressed={tag === active}
          title={counted.has(tag) ? t('tagChipCount', counted.get(tag) ?? 0) : undefined}
          onClick={() => onPick(tag === active ? undefined : tag)}
        >
          #{tag}
        </button>
      ))}
    </fieldset>
  );
}
