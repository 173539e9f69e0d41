import { useRef } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { useRovingGrid } from '../../roving.ts';
import { PlatformSelect } from '../../components/PlatformSelect.tsx';
import { useUrlState } from '../../url-state.ts';
import type { Colouring } from './coverage.ts';
import { Legend } from './Legend.tsx';
import { TechniqueCell } from './TechniqueCell.tsx';

const MatrixDocument = graphql(`
  query Matrix($platform: String) {
    heatmap(platform: $platform) {
      techniqueCount
      tactics {
        id
        name
        techniques { ttpId ...TechniqueCell }
      }
    }
  }
`);

/** The ATT&CK Enterprise matrix in one request: tactics in kill-chain order, coloured by status or score. */
export default function MatrixPage() {
  const [search, update] = useUrlState();
  const platform = search.get('platform') || undefined;
  const colouring: Colouring = search.get('colour') === 'score' ? 'score' : 'status';
  const [{ data, error, fetching }] = useQuery({ query: MatrixDocument, variables: { platform } });
  const grid = useRef<HTMLElement>(null);
  const keyboard = useRovingGrid(grid);

  return (
    <section aria-labelledby="matrix-title" className="matrix-page">
      <div className="page-head">
        <h1 id="matrix-title">Coverage matrix</h1>
        <div className="filters">
          <PlatformSelect id="platform" value={platform} onChange={(chosen) => update({ platform: chosen })} />
          <label htmlFor="colouring">Colour by</label>
          <select
            id="colouring"
            value={colouring}
            onChange={(event) => update({ colour: event.target.value === 'score' ? 'score' : undefined })}
          >
            <option value="status">Coverage status</option>
            <option value="score">Score</option>
          </select>
        </div>
      </div>
      <Legend colouring={colouring} />
      {error && <p role="alert">The matrix could not be loaded: {error.message}</p>}
      {fetching && !data && <p className="loading">Loading the matrix…</p>}
      {data && (
        <>
          <p id="matrix-help" className="hint">
            {data.heatmap.techniqueCount} techniques. Arrow keys move between techniques; Enter opens one.
          </p>
          <section className="matrix" ref={grid} {...keyboard} aria-label="ATT&CK Enterprise matrix" aria-describedby="matrix-help">
            {data.heatmap.tactics.map((tactic) => (
              <section key={tactic.id ?? tactic.name} className="tactic" data-nav-column="" aria-labelledby={`tactic-${tactic.id}`}>
                <h2 id={`tactic-${tactic.id}`}>
                  {tactic.name}{' '}
                  <span className="count">
                    {tactic.techniques.length}
                    <span className="visually-hidden"> techniques</span>
                  </span>
                </h2>
                <ul>
                  {tactic.techniques.map((technique) => (
                    <TechniqueCell key={technique.ttpId} technique={technique} colouring={colouring} />
                  ))}
                </ul>
              </section>
            ))}
          </section>
        </>
      )}
    </section>
  );
}
