/** A labelled filter of a list: the empty value means any, the others come from `options` (value → label). */
export function FilterSelect(props: {
  id: string;
  label: string;
  any: string;
  value: string | null | undefined;
  options: Record<string, string>;
  onChange(value: string | undefined): void;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} value={props.value ?? ''} onChange={(event) => props.onChange(event.target.value || undefined)}>
        <option value="">{props.any}</option>
        {Object.entries(props.options).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </>
  );
}
