import { useEffect, useRef } from 'preact/hooks';

/**
 * The result of an action, which takes the focus from the button that is gone with the action's bar. Where the
 * text says `link.text`, those words are a link to `link.href`.
 */
export function Outcome({ text, link }: { text: string; link?: { text: string; href: string } }) {
  const shown = useRef<HTMLParagraphElement>(null);
  useEffect(() => shown.current?.focus(), [text]);
  const at = link ? text.indexOf(link.text) : -1;
  return (
    <p role="status" class="pre" tabIndex={-1} ref={shown}>
      {link && at >= 0 ? (
        <>
          {text.slice(0, at)}
          <a href={link.href}>{link.text}</a>
          {text.slice(at + link.text.length)}
        </>
      ) : (
        text
      )}
    </p>
  );
}
