/** ATT&CK Enterprise platforms, as the catalog names them. */
const PLATFORMS = [
  'Windows',
  'Linux',
  'macOS',
  'Network Devices',
  'Containers',
  'IaaS',
  'SaaS',
  'Office Suite',
  'Identity Provider',
  'ESXi',
];

/** A labelled platform filter; an empty choice means every platform. */
export function PlatformSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string | undefined;
  onChange(platform: string | undefined): void;
}) {
  return (
    <>
      <label htmlFor={id}>Platform</label>
      <select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">All platforms</option>
        {PLATFORMS.map((name) => (
          <option key={name}>{name}</option>
        ))}
      </select>
    </>
  );
}
