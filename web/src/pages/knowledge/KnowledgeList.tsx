import type { ReactNode } from 'react';
import { ColumnHeads } from '../../components/ColumnHeads.tsx';
import { Pager } from '../../components/Pager.tsx';

interface Props<Item> {
  /** The section's heading ("Playbooks") and the id it is labelled by. */
  title: string;
  titleId: string;
  /** The section's own filter, a select beside the heading. */
  filter: { label: string; any: string; value: string | undefined; options: { value: string; label: string }[] };
  onFilter(value: string): void;
  page: { total: number; items: Item[] } | undefined;
  none: string;
  columns: string[];
  cells(item: Item): ReactNode;
  pager: { label: string; offset: number; limit: number; onOffset(offset: number): void };
}

/** One list of the knowledge base: its filter, a table of a page of items, and the pager. */
export function KnowledgeList<Item extends { id: string }>({ title, titleId, filter, page, ...props }: Props<Item>) {
  return (
    <section aria-labelledby={titleId}>
      <div className="page-head">
        <h2 id={titleId}>{title}</h2>
        <label className="inline-field">
          {filter.label}
          <select value={filter.value ?? ''} onChange={(e) => props.onFilter(e.target.value)}>
            <option value="">{filter.any}</option>
            {filter.options.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {page && page.total === 0 && <p>{props.none}</p>}
      {page && page.items.length > 0 && (
        <table>
          <ColumnHeads columns={props.columns} />
          <tbody>
            {page.items.map((item) => (
              <tr key={item.id}>{props.cells(item)}</tr>
            ))}
          </tbody>
        </table>
      )}
      {page && <Pager {...props.pager} count={page.items.length} total={page.total} />}
    </section>
  );
}
