import { useState } from 'react';
import { Pager } from '../../components/Pager.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { stateLabel } from '../board/states.ts';

export const TimelineEntryFragment = graphql(`
  fragment TimelineEntry on TestEvent { id kind fromState toState actorName at }
`);

const PAGE = 20;

/** The test's history (the API lists it oldest first), shown newest first, twenty entries a page. */
export function Timeline(props: { entries: FragmentType<typeof TimelineEntryFragment>[] }) {
  const entries = [...useFragment(TimelineEntryFragment, props.entries)].reverse();
  const [offset, setOffset] = useState(0);
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol className="timeline">
        {entries.slice(offset, offset + PAGE).map((entry) => (
          <li key={entry.id}>
            <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time> · {entry.actorName} ·{' '}
            {entry.kind === 'state_changed' && entry.fromState && entry.toState
              ? `${stateLabel(entry.fromState)} → ${stateLabel(entry.toState)}`
              : entry.kind.replaceAll('_', ' ')}
          </li>
        ))}
      </ol>
      <Pager
        label="Timeline"
        offset={offset}
        limit={PAGE}
        count={Math.min(PAGE, entries.length - offset)}
        total={entries.length}
        onOffset={setOffset}
      />
    </section>
  );
}
