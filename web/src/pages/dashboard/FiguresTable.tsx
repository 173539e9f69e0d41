import type { ReactNode } from 'react';
import { ColumnHeads } from '../../components/ColumnHeads.tsx';

/** A chart's figures as a visually hidden table (its text alternative); a row's first cell is that row's header. */
export function FiguresTable<Row>(props: {
  caption: string;
  columns: string[];
  rows: readonly Row[];
  rowKey(row: Row): string;
  cells(row: Row): ReactNode[];
}) {
  return (
    <table className="visually-hidden">
      <caption>{props.caption}</caption>
      <ColumnHeads columns={props.columns} />
      <tbody>
        {props.rows.map((row) => {
          const [header, ...cells] = props.cells(row);
          return (
            <tr key={props.rowKey(row)}>
              <th scope="row">{header}</th>
              {cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are its columns, in their fixed order
                <td key={index}>{cell}</td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
