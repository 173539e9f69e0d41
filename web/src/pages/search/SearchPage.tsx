import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { stateLabel } from '../board/states.ts';

const SearchDocument = graphql(`
  query Search($query: String!) {
    search(query: $query, limit: 10) {
      techniques { id ttpId name }
      tests { id name state ttpId }
      playbooks { id title ttpId }
    }
  }
`);

/** What `search` found for `?q=`: techniques, tests and playbooks, each a list of links. */
export default function SearchPage() {
  const [params] = useSearchParams();
  const query = (params.get('q') ?? '').trim().slice(0, 100);
  const [{ data, error, fetching }] = useQuery({ query: SearchDocument, variables: { query }, pause: !query });
  const found = data?.search;
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title" className="text">
        {query ? `Search results for “${query}”` : 'Search'}
      </h1>
      {!query && <p>Type a technique id, a name or a title in the search field above.</p>}
      {error && <p role="alert">The search failed: {error.graphQLErrors[0]?.message ?? error.message}</p>}
      {fetching && <p className="loading">Searching…</p>}
      {found && (
        <div className="search-results">
          <section aria-labelledby="found-techniques">
            <h2 id="found-techniques">Techniques ({found.techniques.length})</h2>
            {found.techniques.length ? (
              <ul>
                {found.techniques.map((technique) => (
                  <li key={technique.id} className="text">
                    <Link to={`/techniques/${encodeURIComponent(technique.ttpId)}`}>
                      {technique.ttpId} <bdi>{technique.name}</bdi>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No technique matches.</p>
            )}
          </section>
          <section aria-labelledby="found-tests">
            <h2 id="found-tests">Tests ({found.tests.length})</h2>
            {found.tests.length ? (
              <ul>
                {found.tests.map((test) => (
                  <li key={test.id} className="text">
                    <Link to={`/tests/${test.id}`}>
                      <bdi>{test.name}</bdi>
                    </Link>{' '}
                    — {test.ttpId}, {stateLabel(test.state)}
                  </li>
                ))}
              </ul>
            ) : (
              <p>No test matches.</p>
            )}
          </section>
          <section aria-labelledby="found-playbooks">
            <h2 id="found-playbooks">Playbooks ({found.playbooks.length})</h2>
            {found.playbooks.length ? (
              <ul>
                {found.playbooks.map((playbook) => (
                  <li key={playbook.id} className="text">
                    <Link to={`/knowledge/playbooks/${encodeURIComponent(playbook.id)}`}>
                      <bdi>{playbook.title}</bdi>
                    </Link>{' '}
                    — <Link to={`/techniques/${encodeURIComponent(playbook.ttpId)}`}>{playbook.ttpId}</Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p>No playbook matches.</p>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
