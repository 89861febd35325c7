import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';

/**
 * A popup form named by its title: its first field takes the focus as it opens (the form's name is announced
 * with it), and Escape leaves it. The focus moves while the form is put on the page, before anyone can type: an
 * effect after the paint moved it from a field the person (or a test, on a loaded machine) was already typing in,
 * and their text went into the first field.
 */
export function EditorForm(props: {
  title: string;
  onSubmit: (event: Event) => void;
  onEscape: () => void;
  children: ComponentChildren;
}) {
  const form = useRef<HTMLFormElement>(null);
  const title = useId();
  useLayoutEffect(() => {
    if (!form.current?.contains(document.activeElement))
      form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  return (
    <form
      ref={form}
      aria-labelledby={title}
      class="stack"
      onSubmit={props.onSubmit}
      onKeyDown={(e) => e.key === 'Escape' && props.onEscape()}
      noValidate
    >
      <h2 id={title}>{props.title}</h2>
      {props.children}
    </form>
  );
}
