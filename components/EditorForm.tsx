import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A popup form named by its title: its first field takes the focus when it opens (the form's name is announced
 * with it), and Escape leaves it.
 */
export function EditorForm(props: {
  title: string;
  onSubmit: (event: Event) => void;
  onEscape: () => void;
  children: ComponentChildren;
}) {
  const form = useRef<HTMLFormElement>(null);
  const title = useId();
  useEffect(() => form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus(), []);
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
