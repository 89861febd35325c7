import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

type FieldProps = {
  label: string;
  /** What is wrong with the value, shown under it and announced with it. */
  error?: ComponentChildren;
  /** What to know before typing, shown under the field. */
  hint?: string;
  as?: 'input' | 'select' | 'textarea';
  children?: ComponentChildren;
  /** For a text area. */
  rows?: number;
} & InputHTMLAttributes<HTMLInputElement>;

/**
 * An error as a sentence that names its field: the schemas' fragments ("must not be empty") start in lower case
 * and become "Profile name must not be empty."; a sentence of the popup's own is shown as it is.
 */
function asSentence(label: string, error: ComponentChildren): ComponentChildren {
  if (typeof error !== 'string' || !/^[a-z]/.test(error)) return error;
  return `${label} ${error}${/[.!?]$/.test(error) ? '' : '.'}`;
}

/** A labelled input, select or text area with its hint and its error tied to it for screen readers. */
export function Field({ label, error, hint, as = 'input', ...control }: FieldProps) {
  const id = useId();
  const Control = as as 'input';
  const note = error ? asSentence(label, error) : hint;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <Control id={id} aria-invalid={!!error} aria-describedby={note ? `${id}n` : undefined} {...control} />
      {note && (
        <div id={`${id}n`} class={error ? 'note error' : 'note'}>
          {note}
        </div>
      )}
    </div>
  );
}
