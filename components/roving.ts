import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'a[href], button, input, select, textarea';
const MOVES = ['ArrowUp', 'ArrowDown', 'Home', 'End'];

/**
 * One Tab stop for a whole list (a roving tabindex): the current row, the first until another gets the focus, is in
 * the tab order with its controls, so that its actions are the next Tab stops; the other rows and their controls
 * are not. Up and Down, Home and End move the focus from row to row. The rows are the list's children.
 */
export function useRovingRows(list: RefObject<HTMLElement>) {
  const current = useRef(0);
  const rows = () => [...(list.current?.children ?? [])] as HTMLElement[];
  const mark = () =>
    rows().forEach((row, index) => {
      const stop = index === Math.min(current.current, rows().length - 1) ? 0 : -1;
      row.tabIndex = stop;
      for (const control of row.querySelectorAll<HTMLElement>(FOCUSABLE)) control.tabIndex = stop;
    });
  // Rows come and go as the list changes: every render marks them again.
  useLayoutEffect(mark);
  const indexOf = (target: EventTarget | null) => rows().findIndex((row) => row.contains(target as Node));
  return {
    onFocusIn(event: FocusEvent) {
      const index = indexOf(event.target);
      if (index < 0 || index === current.current) return;
      current.current = index;
      mark();
    },
    onKeyDown(event: KeyboardEvent) {
      const target = event.target as HTMLElement;
      // Arrows keep their meaning in a field, an open menu and a question.
      if (
        !MOVES.includes(event.key) ||
        target.closest('input:not([type=checkbox]), select, textarea, .menu-items, .confirm')
      )
        return;
      const all = rows();
      const from = indexOf(target);
      const to = { Home: 0, End: all.length - 1, ArrowUp: from - 1, ArrowDown: from + 1 }[event.key] ?? from;
      const row = all[to];
      if (!row) return;
      event.preventDefault();
      current.current = to;
      mark();
      row.focus();
    },
  };
}
