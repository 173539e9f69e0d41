/** A table's head: one column header a name, in order. */
export function ColumnHeads(props: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
