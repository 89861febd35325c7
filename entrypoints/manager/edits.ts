import type { ProfileUpdate } from '../../lib/api/inputs/profiles';
import type { Profile } from '../../lib/api/schemas/profiles';

/** The cells changed in place. */
export type EditableField = 'name' | 'tags' | 'notes';

/** A cell's text as its field shows it: tags as "a, b". */
export function textOf(profile: Profile, field: EditableField): string {
  if (field === 'tags') return profile.tags.join(', ');
  return profile[field];
}

/** What a cell's new text changes: tags are split at commas, blanks and `#` dropped, each once. */
export function changeOf(field: EditableField, text: string): ProfileUpdate {
  if (field !== 'tags') return { [field]: field === 'name' ? text.trim() : text };
  const tags = text
    .split(',')
    .map((tag) => tag.trim().replace(/^#/, ''))
    .filter(Boolean);
  return { tags: [...new Set(tags)] };
}

/** A change made in place, with what puts it back. */
export interface Edit {
  profileId: string;
  name: string;
  field: EditableField;
  undo: ProfileUpdate;
}

/** The edit that `changeOf` makes, remembered with the value before it, for Undo. */
export const editOf = (profile: Profile, field: EditableField): Edit => ({
  profileId: profile.id,
  name: profile.name,
  field,
  undo: field === 'tags' ? { tags: profile.tags } : { [field]: profile[field] },
});
