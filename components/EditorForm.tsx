import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A popup form: its title takes the focus when it opens, so that it is announced, and Escape leaves it. */
export function EditorForm(props: {
  title: string;
  onSubmit: (event: Event) => void;
  onEscape: () => void;
  children: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <form
      class="stack"
      onSubmit={props.onSubmit}
      onKeyDown={(e) => e.key === 'Escape' && props.onEscape()}
      noValidate
    >
      <h2 tabIndex={-1} ref={heading}>
        {props.title}
      </h2>
      {props.children}
    </form>
  );
}
