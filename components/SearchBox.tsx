import type { RefObject } from 'preact';

/** A list's search box: what is typed goes to `onText` as it is typed. */
export function SearchBox({
  label,
  hint,
  value,
  onText,
  field,
}: {
  label: string;
  hint: string;
  value: string;
  onText: (text: string) => void;
  field?: RefObject<HTMLInputElement>;
}) {
  return (
    <input
      ref={field}
      type="search"
      aria-label={label}
      placeholder={hint}
      value={value}
      onInput={(event) => onText(event.currentTarget.value)}
    />
  );
}
