import { useMemo, useRef } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { useRovingGrid } from '../../roving.ts';
import { PlatformSelect } from '../../components/PlatformSelect.tsx';
import { useUrlState } from '../../url-state.ts';
import { colouringOf, type Overlay } from './coverage.ts';
import { Legend } from './Legend.tsx';
import { OverlayControls } from './OverlayControls.tsx';
import { useActor, useComparison, useConfidence } from './overlays.ts';
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

/**
 * The ATT&CK Enterprise matrix in one request: tactics in kill-chain order, coloured by status, score or detection
 * confidence; the actor overlay, the snapshot comparison and the confidence add one request each when chosen.
 */
export default function MatrixPage() {
  const [search, update] = useUrlState();
  const platform = search.get('platform') || undefined;
  const colouring = colouringOf(search.get('colour'));
  const actorId = search.get('actor') || undefined;
  const before = search.get('before') || undefined;
  const after = search.get('after') || undefined;
  const [{ data, error, fetching }] = useQuery({ query: MatrixDocument, variables: { platform } });
  const confidence = useConfidence(colouring === 'confidence');
  const actor = useActor(actorId);
  const comparison = useComparison(before, after);
  const overlay: Overlay = useMemo(
    () => ({ confidence: confidence.confidence, actor: actor.actor, changes: comparison.changes }),
    [confidence.confidence, actor.actor, comparison.changes],
  );
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
            onChange={(event) => update({ colour: event.target.value === 'status' ? undefined : event.target.value })}
          >
            <option value="status">Coverage status</option>
            <option value="score">Score</option>
            <option value="confidence">Detection confidence</option>
          </select>
        </div>
      </div>
      <OverlayControls actor={actorId} before={before} after={after} platform={platform} onChange={update} />
      <Legend colouring={colouring} actor={actor.actor?.name} compared={Boolean(comparison.changes)} />
      <div aria-live="polite" className="overlay-summary">
        {actor.score && (
          <p className="text">
            {actor.score.threatActor.externalId ? `${actor.score.threatActor.externalId} ` : ''}
            <bdi>{actor.score.threatActor.name}</bdi>: {actor.score.techniqueCount} techniques, coverage score{' '}
            <strong>{actor.score.score === null || actor.score.score === undefined ? 'none' : Math.round(actor.score.score)}</strong>
          </p>
        )}
        {comparison.comparison && (
          <p>
            {comparison.comparison.changed.length} technique{comparison.comparison.changed.length === 1 ? '' : 's'} changed status between
            the snapshots ({comparison.comparison.improved} improved, {comparison.comparison.regressed} regressed).
          </p>
        )}
      </div>
      {actor.error && <p role="alert">The actor overlay could not be loaded: {actor.error.message}</p>}
      {comparison.error && <p role="alert">The snapshot comparison could not be loaded: {comparison.error.message}</p>}
      {confidence.error && <p role="alert">The detection confidence could not be loaded: {confidence.error.message}</p>}
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
                    <TechniqueCell key={technique.ttpId} technique={technique} colouring={colouring} overlay={overlay} />
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
