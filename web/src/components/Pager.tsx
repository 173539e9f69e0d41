export interface PagerProps {
  /** What is paged, singular: the navigation is named "<label> pages". */
  label: string;
  offset: number;
  limit: number;
  /** How many items this page holds. */
  count: number;
  /** The number of items in all, where the server counts them… */
  total?: number;
  /** False when the server estimated `total` (a list of more than 10,000). */
  totalExact?: boolean;
  /** …or, where it does not, whether a page follows this one. */
  more?: boolean;
  onOffset(offset: number): void;
}

/**
 * Previous/Next over a server-side page, with "first–last of total" announced politely when it changes.
 * An end button stays focusable (aria-disabled), so a keyboard user paging to the end keeps their place.
 * Nothing is shown while everything fits on one page.
 */
export function Pager({ label, offset, limit, count, total, totalExact = true, more, onOffset }: PagerProps) {
  const hasPrevious = offset > 0;
  const hasNext = total === undefined ? Boolean(more) : offset + limit < total;
  if (!hasPrevious && !hasNext) return null;
  const range = count === 0 ? 'None' : `${offset + 1}–${offset + count}`;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="button small"
        aria-disabled={!hasPrevious}
        onClick={() => hasPrevious && onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <span aria-live="polite">{total === undefined ? range : `${range} of ${totalLabel(total, totalExact)}`}</span>
      <button type="button" className="button small" aria-disabled={!hasNext} onClick={() => hasNext && onOffset(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A list's total as the server gave it: an exact count, or beyond 10,000 matches an estimate ("about 98,000") or,
 * for a filtered list, the lower bound 10,001 ("10,000+").
 */
export function totalLabel(total: number, exact = true): string {
  if (exact) return String(total);
  return total > 10_001 ? `about ${total.toLocaleString('en')}` : '10,000+';
}
