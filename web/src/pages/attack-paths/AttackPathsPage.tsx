import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const PATH_PAGE_SIZE = 20;

const PathsDocument = graphql(`
  query AttackPaths($search: String, $limit: Int!, $offset: Int!) {
    attackPaths(search: $search, limit: $limit, offset: $offset) {
      total
      items { id name description stepCount executionCount updatedAt }
    }
  }
`);

const CreatePathDocument = graphql(`
  mutation CreateAttackPath($input: CreateAttackPathInput!) { createAttackPath(input: $input) { id } }
`);

/** Attack paths: a searchable, server-paged list, and a new path for the roles that write them. */
export default function AttackPathsPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const query = search.get('q') ?? '';
  const offset = offsetIn(search);
  const [{ data, error, fetching }] = useQuery({
    query: PathsDocument,
    variables: { search: query || undefined, limit: PATH_PAGE_SIZE, offset },
  });
  const total = data?.attackPaths.total ?? 0;
  const items = data?.attackPaths.items ?? [];
  return (
    <section aria-labelledby="paths-title">
      <h1 id="paths-title">Attack paths</h1>
      <div className="filters">
        <label htmlFor="path-search">Search</label>
        <input
          id="path-search"
          type="search"
          defaultValue={query}
          onChange={(event) => update({ q: event.target.value || undefined, offset: undefined })}
        />
      </div>
      {error && <p role="alert">The attack paths could not be loaded: {error.message}</p>}
      {fetching && !data && <p className="loading">Loading…</p>}
      {data &&
        (items.length === 0 ? (
          <p>No attack paths{query ? ' match this search' : ' yet'}.</p>
        ) : (
          <table className="wide-table">
            <caption>
              {offset + 1}–{offset + items.length} of {total} attack paths
            </caption>
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">Description</th>
                <th scope="col">Steps</th>
                <th scope="col">Executions</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {items.map((path) => (
                <tr key={path.id}>
                  <td>
                    <Link to={`/attack-paths/${encodeURIComponent(path.id)}`}>{path.name}</Link>
                  </td>
                  <td className="text">{path.description}</td>
                  <td>{path.stepCount}</td>
                  <td>{path.executionCount}</td>
                  <td>
                    <time dateTime={path.updatedAt}>{new Date(path.updatedAt).toLocaleString()}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <Pager
        label="Attack path"
        offset={offset}
        limit={PATH_PAGE_SIZE}
        count={items.length}
        total={total}
        onOffset={(next) => update({ offset: offsetValue(next) })}
      />
      {inRoleSet(viewer, 'allButViewer') && <NewPathForm />}
    </section>
  );
}

function NewPathForm() {
  const navigate = useNavigate();
  const [creation, create] = useMutation(CreatePathDocument);
  const [problem, setProblem] = useState<Problem>();
  return (
    <form
      className="panel"
      aria-labelledby="new-path-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const result = await create({ input: { name: String(form.get('name')), description: String(form.get('description')) } });
        setProblem(problemOf(result.error));
        if (result.data) navigate(`/attack-paths/${encodeURIComponent(result.data.createAttackPath.id)}`);
      }}
    >
      <h2 id="new-path-title">New attack path</h2>
      <Field id="path-name" label="Name" error={fieldProblem(problem, 'name')}>
        {(describedBy) => <input id="path-name" name="name" required aria-describedby={describedBy} />}
      </Field>
      <Field id="path-description" label="Description" error={fieldProblem(problem, 'description')}>
        {(describedBy) => <textarea id="path-description" name="description" rows={2} aria-describedby={describedBy} />}
      </Field>
      <Outcome problem={problem} fieldsShown={['name', 'description']} />
      <button type="submit" className="button primary" disabled={creation.fetching}>
        Create the path
      </button>
    </form>
  );
}
