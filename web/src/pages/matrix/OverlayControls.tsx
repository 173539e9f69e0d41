import { useState } from 'react';
import { useClient, useQuery } from 'urql';
import { graphql } from '../../gql';
import { Outcome } from '../../components/Outcome.tsx';

const OverlayChoicesDocument = graphql(`
  query MatrixOverlayChoices {
    threatActors(limit: 200) { total items { id name externalId } }
    snapshots(limit: 50) { items { id name kind createdAt } }
  }
`);

const NavigatorLayerDocument = graphql(`
  query NavigatorLayer($platform: String) {
    navigatorLayer(platform: $platform)
  }
`);

const snapshotLabel = (snapshot: { name?: string | null; kind: string; createdAt: unknown }) =>
  `${new Date(String(snapshot.createdAt)).toLocaleString()} (${snapshot.kind})${snapshot.name ? ` ${snapshot.name}` : ''}`;

/** Choosers of the actor overlay and the snapshot comparison, and the Navigator export. */
export function OverlayControls(props: {
  actor: string | undefined;
  before: string | undefined;
  after: string | undefined;
  platform: string | undefined;
  onChange(changes: Record<string, string | undefined>): void;
}) {
  const [{ data, error }] = useQuery({ query: OverlayChoicesDocument });
  const client = useClient();
  const [exportProblem, setExportProblem] = useState<string>();
  const snapshots = data?.snapshots.items ?? [];

  async function exportLayer() {
    const result = await client.query(NavigatorLayerDocument, { platform: props.platform }, { requestPolicy: 'network-only' }).toPromise();
    if (result.error || !result.data) return setExportProblem(`The layer could not be exported: ${result.error?.message ?? 'no answer'}`);
    setExportProblem(undefined);
    const blob = new Blob([JSON.stringify(result.data.navigatorLayer, null, 2)], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `violet-layer${props.platform ? `-${props.platform.replace(/[^A-Za-z0-9]+/g, '-')}` : ''}.json`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <div className="filters overlay-controls">
      {error && <p role="alert">The actors and snapshots could not be loaded: {error.message}</p>}
      <label htmlFor="actor">Threat actor</label>
      <select id="actor" value={props.actor ?? ''} onChange={(event) => props.onChange({ actor: event.target.value || undefined })}>
        <option value="">None</option>
        {data?.threatActors.items.map((actor) => (
          <option key={actor.id} value={actor.id}>
            {actor.externalId ? `${actor.externalId} ` : ''}
            {actor.name}
          </option>
        ))}
      </select>
      {data && data.threatActors.total > data.threatActors.items.length && (
        <span className="hint">
          (the first {data.threatActors.items.length} of {data.threatActors.total} actors by name)
        </span>
      )}
      <label htmlFor="compare-before">Compare snapshot</label>
      <select
        id="compare-before"
        value={props.before ?? ''}
        onChange={(event) => props.onChange({ before: event.target.value || undefined, after: props.after ?? snapshots[0]?.id })}
      >
        <option value="">None</option>
        {snapshots.map((snapshot) => (
          <option key={snapshot.id} value={snapshot.id}>
            {snapshotLabel(snapshot)}
          </option>
        ))}
      </select>
      <label htmlFor="compare-after">with</label>
      <select
        id="compare-after"
        value={props.after ?? ''}
        disabled={!props.before}
        onChange={(event) => props.onChange({ after: event.target.value || undefined })}
      >
        <option value="">Choose</option>
        {snapshots.map((snapshot) => (
          <option key={snapshot.id} value={snapshot.id}>
            {snapshotLabel(snapshot)}
          </option>
        ))}
      </select>
      <button type="button" className="button" onClick={() => void exportLayer()}>
        Export Navigator layer
      </button>
      <Outcome problem={exportProblem} />
    </div>
  );
}
