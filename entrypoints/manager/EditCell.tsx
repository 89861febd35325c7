import { useEffect, useRef } from 'preact/hooks';

/**
 * A cell's text in a field, to change it in place: Enter or leaving the field saves, Escape gives it up. The field
 * has the focus and its text selected as it opens.
 */
export function EditCell({
  label,
  text,
  onSave,
  onCancel,
}: {
  label: string;
  text: string;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const ended = useRef(false);
  useEffect(() => field.current?.select(), []);
  const end = (save: boolean) => {
    if (ended.current) return;
    ended.current = true;
    const value = field.current?.value ?? text;
    if (save && value !== text) onSave(value);
    else onCancel();
  };
  return (
    <input
      ref={field}
      class="cell-field"
      aria-label={label}
      defaultValue={text}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') end(true);
        if (event.key === 'Escape') end(false);
      }}
      onBlur={() => end(true)}
    />
  );
}
