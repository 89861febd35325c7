import { useEffect, useState } from 'preact/hooks';

/** How long a row just saved may take to be drawn (its list comes back through storage) before the heading is used. */
const ROW_DRAWN_MS = 1000;

/**
 * Moves the focus once the view is drawn again after a form closes or a row goes: to the control marked
 * `data-lands={key}` (a row's Edit, or the button that opened the form), else to the view's heading.
 */
export function useLanding(): (key: string) => void {
  const [key, setKey] = useState<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    const marked = key && document.querySelector<HTMLElement>(`[data-lands="${CSS.escape(key)}"]`);
    if (marked) {
      marked.focus();
      setKey(null);
      return;
    }
    const timer = setTimeout(
      () => {
        document.querySelector<HTMLElement>('main h1')?.focus();
        setKey(null);
      },
      key ? ROW_DRAWN_MS : 0,
    );
    return () => clearTimeout(timer);
  });
  return setKey;
}

/**
 * A list's form, for the item being edited (or `true` for a new one): `close` ends it, and the focus lands on
 * the item saved, else on what opened the form; `land` moves it after a row goes.
 */
export function useEditing<T extends { id: string }>() {
  const [editing, setEditing] = useState<T | true | null>(null);
  const land = useLanding();
  function close(savedId?: string) {
    if (!editing) return;
    setEditing(null);
    land(savedId ?? (editing === true ? 'new' : editing.id));
  }
  return { editing, edit: setEditing, close, land };
}
