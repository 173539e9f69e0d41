import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { AssigneeSelect } from './AssigneeSelect.tsx';
import { type Problem, problemOf } from '../../components/problems.ts';

const AssignableUsersDocument = graphql(`
  query AssignableUsers {
    assignableUsers { ...AssigneeOption }
  }
`);

const ReassignTestDocument = graphql(`
  mutation ReassignTest($id: UUID!, $assignedTo: UUID) {
    updateTest(id: $id, input: { assignedTo: $assignedTo }) { id assignedTo { username displayName } }
  }
`);

/**
 * Changes who a test is assigned to. Shown only while the server lets the caller edit the test's general fields
 * (Test.myEdits), so the assignable users are asked for only then. A refusal goes to `onSaved`, which shows it
 * with the page's other errors and refreshes the test.
 */
export function AssigneeEditor(props: { testId: string; assignedToId: string | null | undefined; onSaved(failure?: Problem): void }) {
  const [{ data, error }] = useQuery({ query: AssignableUsersDocument });
  const [{ fetching }, reassign] = useMutation(ReassignTestDocument);
  const current = props.assignedToId ?? '';
  const [chosen, setChosen] = useState(current);
  const [shown, setShown] = useState(current);
  const [saved, setSaved] = useState(false);
  // The assignee changed (here or elsewhere, the page follows it live): the choice starts from the new one.
  if (current !== shown) {
    setShown(current);
    setChosen(current);
  }
  return (
    <form
      className="inline-form assignee-editor"
      aria-labelledby="assignee-editor-title"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        void reassign({ id: props.testId, assignedTo: chosen || null }).then((result) => {
          const failure = problemOf(result.error);
          setSaved(!failure);
          props.onSaved(failure);
        });
      }}
    >
      <h2 id="assignee-editor-title" className="visually-hidden">
        Assignment
      </h2>
      <label htmlFor="test-assignee">Change assignee</label>
      <AssigneeSelect
        id="test-assignee"
        users={data?.assignableUsers ?? []}
        value={chosen}
        onChange={setChosen}
        disabled={!data || fetching}
      />
      <button type="submit" className="button" disabled={!data || fetching || chosen === current}>
        {fetching ? 'Saving…' : 'Save assignee'}
      </button>
      {error && (
        <p role="alert" className="error">
          The users who may be assigned could not be loaded: {error.message}
        </p>
      )}
      {saved && <p role="status">Assignee saved.</p>}
    </form>
  );
}
