import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { Pager } from '../../components/Pager.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { stateLabel } from '../board/states.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';

export const CampaignTestFragment = graphql(`
  fragment CampaignTestRow on Test { id name state technique { ttpId name } }
`);

const RemoveTestDocument = graphql(`
  mutation RemoveCampaignTest($id: UUID!, $testId: UUID!) { removeCampaignTest(id: $id, testId: $testId) { id testCount } }
`);

const AddTestDocument = graphql(`
  mutation AddCampaignTest($id: UUID!, $testId: UUID!) { addCampaignTest(id: $id, input: { testId: $testId }) { id testCount } }
`);

const FREE_TEST_LIMIT = 100;

const FreeTestsDocument = graphql(`
  query FreeTests($limit: Int!) {
    tests(filter: { withoutCampaign: true }, limit: $limit) { total items { id name technique { ttpId } } }
  }
`);

function TestRow(props: {
  test: FragmentType<typeof CampaignTestFragment>;
  campaignId: string;
  manage: boolean;
  onDone(problem?: Problem): void;
}) {
  const test = useFragment(CampaignTestFragment, props.test);
  const [{ fetching }, remove] = useMutation(RemoveTestDocument);
  const nameId = `campaign-test-${test.id}`;
  return (
    <tr>
      <td className="text">
        <Link id={nameId} to={`/tests/${test.id}`}>
          {test.name}
        </Link>
      </td>
      <td className="text">
        {test.technique.ttpId} {test.technique.name}
      </td>
      <td>{stateLabel(test.state)}</td>
      {props.manage && (
        <td>
          <button
            type="button"
            className="button small"
            aria-describedby={nameId}
            disabled={fetching}
            onClick={async () => props.onDone(problemOf((await remove({ id: props.campaignId, testId: test.id })).error))}
          >
            Remove from campaign
          </button>
        </td>
      )}
    </tr>
  );
}

/** One page of the campaign's tests, each a link to its page; leads may take tests out and put free ones in. */
export function CampaignTests(props: {
  campaignId: string;
  tests: ({ id: string } & FragmentType<typeof CampaignTestFragment>)[];
  testCount: number;
  offset: number;
  pageSize: number;
  manage: boolean;
  onPage(offset: number): void;
  onDone(problem?: Problem): void;
}) {
  const { offset, pageSize, testCount } = props;
  const shown = props.tests.length > 0 ? `${offset + 1}–${offset + props.tests.length} of ${testCount}` : `none of ${testCount}`;
  return (
    <section aria-labelledby="tests-title">
      <h2 id="tests-title">Tests</h2>
      <p>
        <Link to={`/board?campaign=${encodeURIComponent(props.campaignId)}`}>Open these tests on the board</Link>
      </p>
      <table className="campaign-table">
        <caption>{`Tests ${shown}`}</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Technique</th>
            <th scope="col">State</th>
            {props.manage && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {props.tests.map((test) => (
            <TestRow key={test.id} test={test} campaignId={props.campaignId} manage={props.manage} onDone={props.onDone} />
          ))}
        </tbody>
      </table>
      <Pager label="Test" offset={offset} limit={pageSize} count={props.tests.length} total={testCount} onOffset={props.onPage} />
      {props.manage && <AddTestForm campaignId={props.campaignId} onDone={props.onDone} />}
    </section>
  );
}

/** Puts a test of no campaign into this one (the latest such tests are offered). */
function AddTestForm(props: { campaignId: string; onDone(problem?: Problem): void }) {
  const [{ data, error }, reload] = useQuery({ query: FreeTestsDocument, variables: { limit: FREE_TEST_LIMIT } });
  const [testId, setTestId] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, add] = useMutation(AddTestDocument);
  const free = data?.tests;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const failure = problemOf((await add({ id: props.campaignId, testId })).error);
    setProblem(failure?.field ? failure : undefined);
    if (!failure) setTestId('');
    reload({ requestPolicy: 'network-only' });
    props.onDone(failure?.field ? undefined : failure);
  };
  return (
    <form aria-labelledby="add-test-title" className="campaign-form" onSubmit={submit}>
      <h3 id="add-test-title">Add a test</h3>
      {error && <p role="alert">The tests outside campaigns could not be loaded: {error.message}</p>}
      <fieldset disabled={fetching || !free}>
        <legend className="visually-hidden">A test of no campaign</legend>
        <Field id="add-test" label="Test outside any campaign" error={fieldProblem(problem, 'testId')}>
          {(describedBy) => (
            <select id="add-test" required value={testId} aria-describedby={describedBy} onChange={(e) => setTestId(e.target.value)}>
              <option value="">Choose a test</option>
              {free?.items.map((test) => (
                <option key={test.id} value={test.id}>
                  {`${test.technique.ttpId} · ${test.name}`}
                </option>
              ))}
            </select>
          )}
        </Field>
        {free && free.total > free.items.length && <p className="hint">{`The latest ${free.items.length} of ${free.total}.`}</p>}
        <button type="submit" className="button">
          Add test
        </button>
      </fieldset>
    </form>
  );
}
