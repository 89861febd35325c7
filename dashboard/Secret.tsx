import { useState } from 'preact/hooks';

/** A key or an invitation's link just made, shown this once, with a button that copies it. */
export function Secret(props: { title: string; secret: string; note: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  const copy = () =>
    navigator.clipboard.writeText(props.secret).then(
      () => setCopied('Copied.'),
      () => setCopied('Your browser did not allow copying: select it and copy it yourself.'),
    );
  return (
    <section class="stack panel new-key" aria-labelledby="secret-title">
      <h2 id="secret-title">{props.title}</h2>
      <code class="secret" data-testid="secret">
        {props.secret}
      </code>
      <p>
        <strong>{props.note}</strong>
      </p>
      <div class="bar">
        <button type="button" class="primary" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={props.onDone}>
          Done
        </button>
        {copied && <span role="status">{copied}</span>}
      </div>
    </section>
  );
}
