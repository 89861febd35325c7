import { useState } from 'preact/hooks';
import type { CreatedDashboardKey } from '../lib/dashboard/schemas';

/** The key just created, shown this once, with a button that copies it. */
export function NewKey({ created, onDone }: { created: CreatedDashboardKey; onDone: () => void }) {
  const [copied, setCopied] = useState<string>();
  const copy = () =>
    navigator.clipboard.writeText(created.key).then(
      () => setCopied('Copied.'),
      () => setCopied('Your browser did not allow copying: select the key and copy it yourself.'),
    );
  return (
    <section class="stack panel new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Your new key “{created.name}”</h2>
      <code class="secret" data-testid="new-key">
        {created.key}
      </code>
      <p>
        <strong>Copy it now: it will not be shown again.</strong> Only its prefix stays in the list.
      </p>
      <div class="bar">
        <button type="button" class="primary" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
        {copied && <span role="status">{copied}</span>}
      </div>
    </section>
  );
}
