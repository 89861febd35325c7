import { exactly, fromNow } from '../lib/when';

/** A timestamp of the service as how long ago (or from now) it is, the exact moment in a tooltip. */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactly(iso)}>
      {fromNow(iso)}
    </time>
  );
}
