import { type FragmentType, graphql, useFragment } from '../../gql';
import { Pager } from '../../components/Pager.tsx';

export const TechniqueCountermeasuresFragment = graphql(`
  fragment TechniqueCountermeasures on Technique {
    countermeasures(limit: $pageSize, offset: $countermeasuresOffset) { id d3fendId name tactic }
  }
`);

export const TechniqueRevalidationFragment = graphql(`
  fragment TechniqueRevalidation on RevalidationEntry {
    id reason detail since riskScore
  }
`);

const REASONS: Record<string, string> = {
  validation_expired: 'Validation expired',
  validation_invalidated: 'Validation invalidated',
  infrastructure_change: 'Infrastructure change',
  coverage_stale: 'Coverage stale',
};

/** D3FEND countermeasures of the technique, a page at a time. */
export function CountermeasuresSection(props: {
  technique: FragmentType<typeof TechniqueCountermeasuresFragment>;
  pageSize: number;
  offset: number;
  onOffset(offset: number): void;
}) {
  const { countermeasures } = useFragment(TechniqueCountermeasuresFragment, props.technique);
  return (
    <section aria-labelledby="countermeasures-title">
      <h2 id="countermeasures-title">Countermeasures</h2>
      {countermeasures.length === 0 ? (
        <p>No D3FEND countermeasure is mapped to this technique.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">D3FEND</th>
              <th scope="col">Countermeasure</th>
              <th scope="col">Tactic</th>
            </tr>
          </thead>
          <tbody>
            {countermeasures.map((countermeasure) => (
              <tr key={countermeasure.id}>
                <td>{countermeasure.d3fendId}</td>
                <td>{countermeasure.name}</td>
                <td>{countermeasure.tactic}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="Countermeasure"
        offset={props.offset}
        limit={props.pageSize}
        count={countermeasures.length}
        more={countermeasures.length === props.pageSize}
        onOffset={props.onOffset}
      />
    </section>
  );
}

/** Why the technique is in the revalidation queue (the queue is shown to the roles that may read it). */
export function RevalidationSection(props: { entries: FragmentType<typeof TechniqueRevalidationFragment>[] }) {
  const entries = useFragment(TechniqueRevalidationFragment, props.entries);
  return (
    <section aria-labelledby="revalidation-title">
      <h2 id="revalidation-title">Revalidation</h2>
      {entries.length === 0 ? (
        <p>Not in the revalidation queue.</p>
      ) : (
        <ul>
          {entries.map((entry) => (
            <li key={entry.id}>
              <strong>{REASONS[entry.reason] ?? entry.reason}</strong> since {new Date(entry.since).toLocaleDateString()}:{' '}
              <span className="text">{entry.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
