import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A row's secondary actions behind one "⋯" button (a disclosure: the actions are ordinary buttons). Opening it
 * puts the focus on the first action; Escape closes it and gives the focus back; choosing one closes it.
 */
export function RowMenu({
  label,
  lands,
  children,
}: {
  label: string;
  /** The `data-lands` key, so that the focus comes back here after a form the menu opened. */
  lands?: string;
  children: ComponentChildren;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) items.current?.querySelector('button')?.focus();
  }, [open]);
  return (
    <fieldset
      class="menu"
      aria-label={label}
      // Choosing an action closes the menu.
      onClick={(event) => {
        if (items.current?.contains(event.target as Node)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (next && !event.currentTarget.contains(next)) setOpen(false);
      }}
    >
      <button
        type="button"
        class="icon"
        ref={button}
        data-lands={lands}
        aria-label={label}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div class="menu-items" ref={items}>
          {children}
        </div>
      )}
    </fieldset>
  );
}
