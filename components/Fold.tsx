import type { ComponentChildren } from 'preact';

/** A part shown on asking: its title, and under it, once opened, its content in a column. */
export function Fold({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <details>
      <summary>{title}</summary>
      <div class="stack">{children}</div>
    </details>
  );
}
