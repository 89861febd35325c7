import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'a[href], button, input, select, textarea';
const KEEPS_ARROWS = 'input:not([type=checkbox]), select, textarea, .menu-items, .confirm';

/**
 * One Tab stop for a whole list (a roving tabindex): the current row, the first until another gets the focus, is in
 * the tab order with its controls, so that its actions are the next Tab stops; the other rows and their controls
 * are not. Up and Down, Home and End move the focus from row to row. The rows are the list's children.
 */
export function useRovingRows(list: RefObject<HTMLElement>) {
  const current = useRef(0);
  const rows = () => [...(list.current?.children ?? [])] as HTMLElement[];
  const mark = () =>
    rows().forEach((row, index, all) => {
      const stop = index === Math.min(current.current, all.length - 1) ? 0 : -1;
      for (const control of [row, ...row.querySelectorAll<HTMLElement>(FOCUSABLE)]) control.tabIndex = stop;
    });
  // Rows come and go as the list changes: every render marks them again.
  useLayoutEffect(mark);
  const indexOf = (target: EventTarget | null) => rows().findIndex((row) => row.contains(target as Node));
  return {
    // The row the focus is in, by the arrows or by a click, becomes the current one.
    onFocusIn(event: FocusEvent) {
      current.current = Math.max(0, indexOf(event.target));
      mark();
    },
    onKeyDown(event: KeyboardEvent) {
      const from = indexOf(event.target);
      const to = { Home: 0, End: rows().length - 1, ArrowUp: from - 1, ArrowDown: from + 1 }[event.key];
      // Arrows keep their meaning in a field, an open menu and a question.
      const row = to === undefined || (event.target as HTMLElement).closest(KEEPS_ARROWS) ? null : rows()[to];
      if (!row) return;
      event.preventDefault();
      row.focus();
    },
  };
}
