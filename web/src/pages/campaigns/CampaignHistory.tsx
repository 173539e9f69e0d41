import { useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { statusLabel } from './format.ts';

export const CampaignHistoryFragment = graphql(`
  fragment CampaignHistoryPart on CampaignHistory {
    events { id kind fromStatus toStatus actorName at }
    executions { id occurrence finishedAt testsCreated }
  }
`);

const PAGE = 20;

/** What happened to the campaign (the API lists it oldest first), newest first, twenty entries a page; then its executions. */
export function CampaignHistory(props: { history: FragmentType<typeof CampaignHistoryFragment> }) {
  const history = useFragment(CampaignHistoryFragment, props.history);
  const events = [...history.events].reverse();
  const [offset, setOffset] = useState(0);
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ol className="timeline" aria-label="Campaign history">
        {events.slice(offset, offset + PAGE).map((event) => (
          <li key={event.id}>
            <time dateTime={event.at}>{new Date(event.at).toLocaleString()}</time> · <span className="text">{event.actorName}</span> ·{' '}
            {event.kind === 'state_changed' && event.fromStatus && event.toStatus
              ? `${statusLabel(event.fromStatus)} → ${statusLabel(event.toStatus)}`
              : event.kind.replaceAll('_', ' ')}
          </li>
        ))}
      </ol>
      {events.length > PAGE && (
        <nav aria-label="History pages" className="card-actions">
          <button type="button" className="button small" disabled={offset === 0} onClick={() => setOffset(offset - PAGE)}>
            Newer
          </button>
          <button type="button" className="button small" disabled={offset + PAGE >= events.length} onClick={() => setOffset(offset + PAGE)}>
            Older
          </button>
        </nav>
      )}
      {history.executions.length > 0 && (
        <>
          <h3>{`Latest executions (${Math.min(PAGE, history.executions.length)} of ${history.executions.length})`}</h3>
          <ul className="timeline">
            {[...history.executions]
              .reverse()
              .slice(0, PAGE)
              .map((execution) => (
                <li key={execution.id}>
                  <time dateTime={execution.occurrence}>{new Date(execution.occurrence).toLocaleString()}</time> ·{' '}
                  {`${execution.testsCreated} retests`}
                  {execution.finishedAt ? '' : ' · running'}
                </li>
              ))}
          </ul>
        </>
      )}
    </section>
  );
}
