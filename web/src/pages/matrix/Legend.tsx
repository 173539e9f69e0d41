import { type Colouring, SCORE_BANDS, STATUSES } from './coverage.ts';

export function Legend({ colouring }: { colouring: Colouring }) {
  return (
    <ul className="legend" aria-label="Legend">
      {colouring === 'status'
        ? STATUSES.map(({ status, label, glyph }) => (
            <li key={status}>
              <span className={`swatch status-${status}`} aria-hidden="true" />
              <span aria-hidden="true">{glyph}</span> {label}
            </li>
          ))
        : SCORE_BANDS.map(({ band, label }) => (
            <li key={band}>
              <span className={`swatch score-${band}`} aria-hidden="true" />
              {label}
            </li>
          ))}
    </ul>
  );
}
