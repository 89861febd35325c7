import type { ComponentChildren } from 'preact';

/** A checkbox with its words beside it; `onCheck` is told its new state. */
export function Check({
  checked,
  onCheck,
  children,
}: {
  checked: boolean;
  onCheck: (checked: boolean) => void;
  children: ComponentChildren;
}) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onInput={(event) => onCheck(event.currentTarget.checked)} />
      {children}
    </label>
  );
}
