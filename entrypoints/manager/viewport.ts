/** The rows drawn around the ones on screen, so that a quick scroll shows no blank before the next paint. */
const OVERSCAN = 8;

/**
 * Which rows of a list of `count`, each `rowHeight` tall, a scroll box shows at `scrollTop` with `height` of room:
 * `[start, end)` with a few more either side. Only these are drawn (the rest is empty space of the same height).
 */
export function visibleRows(
  scrollTop: number,
  height: number,
  rowHeight: number,
  count: number,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + height) / rowHeight);
  return { start: Math.max(0, first - OVERSCAN), end: Math.min(count, last + OVERSCAN) };
}

/** The scroll position that brings row `index` whole into view, or `scrollTop` if it is already. */
export function scrollToShow(index: number, scrollTop: number, height: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + height) return top + rowHeight - height;
  return scrollTop;
}
