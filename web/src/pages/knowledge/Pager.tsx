/** Previous/Next over a server-side page, with "first–last of total". */
export function Pager(props: {
  label: string;
  offset: number;
  size: number;
  count: number;
  total: number;
  onOffset(offset: number): void;
}) {
  if (props.total === 0) return null;
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
      <span>
        {props.offset + 1}–{props.offset + props.count} of {props.total}
      </span>
      <button
        type="button"
        className="button small"
        disabled={props.offset + props.size >= props.total}
        onClick={() => props.onOffset(props.offset + props.size)}
      >
        Next
      </button>
    </nav>
  );
}
