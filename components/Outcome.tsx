import { useEffect, useRef } from 'preact/hooks';

/** The result of an action, which takes the focus from the button that is gone with the action's bar. */
export function Outcome({ text }: { text: string }) {
  const shown = useRef<HTMLParagraphElement>(null);
  useEffect(() => shown.current?.focus(), [text]);
  return (
    <p role="status" class="pre" tabIndex={-1} ref={shown}>
      {text}
    </p>
  );
}
