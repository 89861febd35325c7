import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Reply } from '../lib/messaging/protocol';
import { Field } from './Field';
import { useTask } from './hooks';
import { Outcome } from './Outcome';
import { Problem } from './Problem';

interface PasteBoxProps<T> {
  label: string;
  action: string;
  /** What the button says while the text is sent (e.g. "Importing…"); `action`, greyed, when left out. */
  busyAction?: string;
  send: (text: string) => Promise<Reply<T>>;
  /** The outcome of a send, as sentences. */
  outcomeOf: (value: T) => string;
  /** What of the text stays in the box after a send (the lines refused, to correct); else it is emptied. */
  kept?: (value: T) => string;
  /** More ways to fill the text (a file input), given the way to set it. */
  more?: (setText: (text: string) => void) => ComponentChildren;
  /** What the text will do, shown under it as it is typed. */
  preview?: (text: string) => ComponentChildren;
}

/**
 * Pasted text sent with one button; the refusal, or the outcome, under it. The text stays in this form only,
 * never in a draft: what is pasted here may hold passwords or session cookies.
 */
export function PasteBox<T>({
  label,
  action,
  busyAction,
  send,
  outcomeOf,
  kept,
  more,
  preview,
}: PasteBoxProps<T>) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState('');
  const task = useTask();
  async function submit() {
    setOutcome('');
    const reply = await task.run(() => send(text));
    if (!reply.ok) return;
    setText(kept?.(reply.value) ?? '');
    setOutcome(outcomeOf(reply.value));
  }
  return (
    <>
      <Field
        as="textarea"
        rows={3}
        class="code"
        spellcheck={false}
        label={label}
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      {more?.(setText)}
      {preview?.(text)}
      <button type="button" disabled={task.busy || !text.trim()} onClick={submit}>
        {(task.busy && busyAction) || action}
      </button>
      <Problem error={task.error} />
      {outcome && <Outcome text={outcome} />}
    </>
  );
}
