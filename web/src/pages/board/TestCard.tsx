import { useState } from 'react';
import { Link } from 'react-router';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { ActionButtons } from './ActionButton.tsx';
import { Outcome } from '../../components/Outcome.tsx';

export const TestCardFragment = graphql(`
  fragment TestCard on Test {
    id
    name
    platform
    technique { ttpId name }
    assignedTo { username displayName }
    myActions
  }
`);

/** A test on the board; its buttons are the actions the server says the viewer may take. */
export function TestCard(props: { test: FragmentType<typeof TestCardFragment>; onChanged(): void }) {
  const test = useFragment(TestCardFragment, props.test);
  const [problem, setProblem] = useState<string>();
  const titleId = `test-${test.id}`;
  return (
    <li className="card">
      <h3 id={titleId}>
        <Link to={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link>
      </h3>
      <p className="card-meta">
        {test.technique.ttpId} {test.technique.name}
        {test.platform && <> · {test.platform}</>}
      </p>
      <p className="card-meta">Assignee: {test.assignedTo ? test.assignedTo.displayName || test.assignedTo.username : 'nobody'}</p>
      <ActionButtons
        actions={test.myActions}
        testId={test.id}
        describedBy={titleId}
        onDone={(failure) => {
          setProblem(failure);
          props.onChanged();
        }}
      />
      <Outcome problem={problem} />
    </li>
  );
}
