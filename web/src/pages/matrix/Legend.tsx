import { type Colouring, CONFIDENCE_BANDS, SCORE_BANDS, STATUSES } from './coverage.ts';

export function Legend({ colouring, actor, compared }: { colouring: Colouring; actor?: string; compared?: boolean }) {
  const bands = colouring === 'score' ? SCORE_BANDS : CONFIDENCE_BANDS;
  return (
    <ul className="legend" aria-label="Legend">
      {colouring === 'status'
        ? STATUSES.map(({ status, label, glyph }) => (
            <li key={status}>
              <span className={`swatch status-${status}`} aria-hidden="true" />
              <span aria-hidden="true">{glyph}</span> {label}
            </li>
          ))
        : bands.map(({ band, label }) => (
            <li key={band}>
              <span className={`swatch ${colouring}-${band}`} aria-hidden="true" />
              {label}
            </li>
          ))}
      {actor && (
        <li className="text">
          <span className="swatch legend-actor" aria-hidden="true" />
          Used by <bdi>{actor}</bdi> (outlined, “actor” in the cell)
        </li>
      )}
      {compared && (
        <li>
          <span className="swatch legend-changed" aria-hidden="true" />
          Status changed between the snapshots (“changed” in the cell)
        </li>
      )}
    </ul>
  );
}
