import { useEffect, useRef } from 'preact/hooks';
import { t } from '../lib/i18n';

/** "Load more" at the end of a list, pressed for the person when it scrolls into view. */
export function LoadMore({ busy, onLoad }: { busy: boolean; onLoad: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const target = button.current;
    if (!target || busy || typeof IntersectionObserver === 'undefined') return;
    const seen = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && load.current(),
    );
    seen.observe(target);
    return () => seen.disconnect();
  }, [busy]);
  return (
    <button type="button" ref={button} aria-busy={busy} onClick={() => busy || onLoad()}>
      {busy ? t('loadingMore') : t('loadMore')}
    </button>
  );
}
