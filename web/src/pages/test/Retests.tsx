import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { useSession } from '../../session.tsx';
import { stateLabel } from '../board/states.ts';
import { problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const RetestEntryFragment = graphql(`
  fragment RetestEntry on Test {
    id
    name
    state
    createdAt
  }
`);

const CreateRetestDocument = graphql(`mutation CreateRetest($id: UUID!) { createRetest(id: $id) { id } }`);

/** The retest lineage in creation order, the current test marked; leads may re-run a decided test. */
export function Retests(props: { testId: string; decided: boolean; chain: FragmentType<typeof RetestEntryFragment>[] }) {
  const chain = useFragment(RetestEntryFragment, props.chain);
  const { viewer } = useSession();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string>();
  const [{ fetching }, create] = useMutation(CreateRetestDocument);
  return (
    <section aria-labelledby="retests-title">
      <h2 id="retests-title">Retest chain</h2>
      {chain.length > 1 ? (
        <ol className="retests">
          {chain.map((entry, index) => (
            <li key={entry.id}>
              {entry.id === props.testId ? (
                <span aria-current="page" className="text">
                  <strong>{index === 0 ? 'First run' : `Retest ${index}`} (this test)</strong>
                </span>
              ) : (
                <Link to={`/tests/${entry.id}`} className="text">
                  {index === 0 ? 'First run' : `Retest ${index}`}: <bdi>{entry.name}</bdi>
                </Link>
              )}{' '}
              — {stateLabel(entry.state)}, {new Date(String(entry.createdAt)).toLocaleDateString()}
            </li>
          ))}
        </ol>
      ) : (
        <p>This test has not been re-run.</p>
      )}
      {props.decided && inRoleSet(viewer, 'leads') && (
        <button
          type="button"
          className="button"
          disabled={fetching}
          onClick={async () => {
            const result = await create({ id: props.testId });
            setProblem(problemOf(result.error)?.message);
            if (result.data) navigate(`/tests/${result.data.createRetest.id}`);
          }}
        >
          Create retest
        </button>
      )}
      <Outcome problem={problem} />
    </section>
  );
}
