import { type FocusEvent, type KeyboardEvent, type RefObject, useEffect } from 'react';

const ITEM = '[data-nav]';
const COLUMN = '[data-nav-column]';

function makeCurrent(container: HTMLElement, target: HTMLElement) {
  for (const item of container.querySelectorAll<HTMLElement>(`${ITEM}[tabindex="0"]`)) item.tabIndex = -1;
  target.tabIndex = 0;
}

/**
 * Keyboard movement in a grid of columns (roving tab index): one item is in the tab order, the arrow keys move
 * within a column and across columns, Home and End go to a column's ends.
 */
export function useRovingGrid(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const container = ref.current;
    if (!container || container.querySelector(`${ITEM}[tabindex="0"]`)) return;
    const first = container.querySelector<HTMLElement>(ITEM);
    if (first) first.tabIndex = 0;
  });

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (ref.current && target.matches(ITEM)) makeCurrent(ref.current, target);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const container = ref.current;
    const current = (event.target as HTMLElement).closest<HTMLElement>(ITEM);
    const column = current?.closest<HTMLElement>(COLUMN);
    if (!container || !current || !column) return;
    const columns = [...container.querySelectorAll<HTMLElement>(COLUMN)];
    const itemsOf = (element: HTMLElement) => [...element.querySelectorAll<HTMLElement>(ITEM)].filter((item) => item.offsetParent !== null);
    const items = itemsOf(column);
    const index = items.indexOf(current);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = items[index + 1];
    else if (event.key === 'ArrowUp') next = items[index - 1];
    else if (event.key === 'Home') next = items[0];
    else if (event.key === 'End') next = items.at(-1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      const step = event.key === 'ArrowLeft' ? -1 : 1;
      for (let at = columns.indexOf(column) + step; at >= 0 && at < columns.length && !next; at += step) {
        const candidates = itemsOf(columns[at]);
        next = candidates[Math.min(index, candidates.length - 1)];
      }
    } else return;
    event.preventDefault();
    if (next) {
      makeCurrent(container, next);
      next.focus();
    }
  };
  return { onKeyDown, onFocus };
}
