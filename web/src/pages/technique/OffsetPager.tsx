/** Previous/Next over a list without a total: Next while the page came back full. */
export function OffsetPager(props: { label: string; offset: number; size: number; count: number; onOffset(offset: number): void }) {
  if (props.offset === 0 && props.count < props.size) return null;
  return (
    <nav className="pager" aria-label={`${props.label} pages`}>
      <button
        type="button"
        className="button small"
        disabled={props.offset === 0}
        onClick={() => props.onOffset(Math.max(0, props.offset - props.size))}
      >
        Previous
      </button>
      <span>{props.count === 0 ? 'none' : `${props.offset + 1}–${props.offset + props.count}`}</span>
      <button
        type="button"
        className="button small"
        disabled={props.count < props.size}
        onClick={() => props.onOffset(props.offset + props.size)}
      >
        Next
      </button>
    </nav>
  );
}
