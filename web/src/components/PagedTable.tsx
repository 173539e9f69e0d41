import type { ReactNode } from 'react';
import { ColumnHeads } from './ColumnHeads.tsx';
import { Pager, type PagerProps } from './Pager.tsx';

/**
 * One server-side page of a history (runs, deliveries, linked issues) as a table, then its pager. `below` stands
 * between the two: what an action on a row came to.
 */
export function PagedTable(props: {
  caption: string;
  columns: readonly string[];
  children: ReactNode;
  below?: ReactNode;
  pager: PagerProps;
}) {
  return (
    <>
      <table className="admin-table">
        <caption>{props.caption}</caption>
        <ColumnHeads columns={props.columns} />
        <tbody>{props.children}</tbody>
      </table>
      {props.below}
      <Pager {...props.pager} />
    </>
  );
}
