import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { statusOf } from '../matrix/coverage.ts';
import { stateLabel } from '../board/states.ts';

const TechniqueDocument = graphql(`
  query TechniqueDetail($ttpId: String!) {
    technique(ttpId: $ttpId) {
      ttpId
      name
      description
      statusGlobal
      score
      platforms
      tactics
      parent { ttpId name }
      tests(limit: 50) { id name state platform }
    }
  }
`);

/** A technique: its description (as plain text), coverage status, score and tests. */
export default function TechniquePage() {
  const { ttpId = '' } = useParams();
  const [{ data, error, fetching }] = useQuery({ query: TechniqueDocument, variables: { ttpId } });
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (error || !data)
    return (
      <p role="alert">
        The technique {ttpId} could not be loaded: {error?.message}
      </p>
    );
  const { technique } = data;
  const status = statusOf(technique.statusGlobal);
  return (
    <article aria-labelledby="technique-title" className="technique-page">
      <p>
        <Link to="/matrix">Back to the matrix</Link>
      </p>
      <h1 id="technique-title">
        {technique.ttpId} {technique.name}
      </h1>
      {technique.parent && (
        <p>
          Sub-technique of{' '}
          <Link to={`/techniques/${encodeURIComponent(technique.parent.ttpId)}`}>
            {technique.parent.ttpId} {technique.parent.name}
          </Link>
        </p>
      )}
      <dl className="facts">
        <dt>Coverage</dt>
        <dd>
          <span className={`swatch status-${technique.statusGlobal}`} aria-hidden="true" /> {status.label}
        </dd>
        <dt>Score</dt>
        <dd>{technique.score === null || technique.score === undefined ? 'Not scored' : `${Math.round(technique.score)} / 100`}</dd>
        <dt>Platforms</dt>
        <dd>{technique.platforms.join(', ') || 'None listed'}</dd>
        <dt>Tactics</dt>
        <dd>{technique.tactics.join(', ')}</dd>
      </dl>
      <h2>Description</h2>
      <p className="description">{technique.description}</p>
      <h2>Tests</h2>
      {technique.tests.length === 0 ? (
        <p>No tests of this technique yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">State</th>
              <th scope="col">Platform</th>
            </tr>
          </thead>
          <tbody>
            {technique.tests.map((test) => (
              <tr key={test.id}>
                <td>
                  <Link to={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link>
                </td>
                <td>{stateLabel(test.state)}</td>
                <td>{test.platform ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
