import { useMutation } from 'urql';
import { graphql } from '../../gql';

const StartDocument = graphql(`mutation StartTest($id: UUID!) { startTestExecution(id: $id) { id state } }`);
const SubmitRedDocument = graphql(`mutation SubmitRed($id: UUID!) { submitTestRed(id: $id) { id state } }`);
const SubmitBlueDocument = graphql(`mutation SubmitBlue($id: UUID!) { submitTestBlue(id: $id) { id state } }`);
const ReopenDocument = graphql(`mutation ReopenTest($id: UUID!) { reopenTest(id: $id) { id state } }`);

/** The actions a card offers as one-click buttons; validations and rejections need a form (the test's page). */
const ONE_CLICK = {
  start_execution: { label: 'Start execution', document: StartDocument },
  submit_red: { label: 'Submit red results', document: SubmitRedDocument },
  submit_blue: { label: 'Submit blue results', document: SubmitBlueDocument },
  reopen: { label: 'Reopen', document: ReopenDocument },
} as const;

type OneClick = keyof typeof ONE_CLICK;
const isOneClick = (action: string): action is OneClick => action in ONE_CLICK;

/** One transition as a button; `onDone` gets the server's refusal in words, if any. */
function ActionButton({
  action,
  testId,
  describedBy,
  onDone,
}: {
  action: OneClick;
  testId: string;
  describedBy: string;
  onDone(problem?: string): void;
}) {
  const { label, document } = ONE_CLICK[action];
  const [{ fetching }, run] = useMutation(document);
  return (
    <button
      type="button"
      className="button small"
      aria-describedby={describedBy}
      disabled={fetching}
      onClick={async () => {
        const result = await run({ id: testId });
        onDone(result.error ? (result.error.graphQLErrors[0]?.message ?? result.error.message) : undefined);
      }}
    >
      {label}
    </button>
  );
}

/** The one-click actions among `actions` (the server's `myActions`), as a row of buttons. */
export function ActionButtons(props: { actions: readonly string[]; testId: string; describedBy: string; onDone(problem?: string): void }) {
  const oneClick = props.actions.filter(isOneClick);
  if (oneClick.length === 0) return null;
  return (
    <div className="card-actions">
      {oneClick.map((action) => (
        <ActionButton key={action} action={action} testId={props.testId} describedBy={props.describedBy} onDone={props.onDone} />
      ))}
    </div>
  );
}
