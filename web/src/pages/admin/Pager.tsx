/** Previous/Next over a server-side page; `offset` changes through `onOffset`. */
export function Pager(props: { label: string; offset: number; limit: number; total: number; onOffset(offset: number): void }) {
  const { offset, limit, total } = props;
  const last = Math.min(offset + limit, total);
  return (
    <nav aria-label={`${props.label} pages`} className="admin-pager">
      <button type="button" className="button small" disabled={offset === 0} onClick={() => props.onOffset(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>{total === 0 ? 'None' : `${offset + 1}–${last} of ${total}`}</span>
      <button type="button" className="button small" disabled={last >= total} onClick={() => props.onOffset(offset + limit)}>
        Next
      </button>
    </nav>
  );
}
