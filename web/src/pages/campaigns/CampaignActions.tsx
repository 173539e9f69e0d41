import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { problemOf, type Problem } from '../../components/problems.ts';

const ActivateDocument = graphql(`mutation ActivateCampaign($id: UUID!) { activateCampaign(id: $id) { id status } }`);
const CompleteDocument = graphql(`mutation CompleteCampaign($id: UUID!) { completeCampaign(id: $id) { id status } }`);

const TRANSITIONS = {
  activate: { label: 'Activate campaign', document: ActivateDocument },
  complete: { label: 'Complete campaign', document: CompleteDocument },
} as const;

type Transition = keyof typeof TRANSITIONS;
const isTransition = (action: string): action is Transition => action in TRANSITIONS;

function TransitionButton(props: { action: Transition; campaignId: string; onDone(problem?: Problem): void }) {
  const { label, document } = TRANSITIONS[props.action];
  const [{ fetching }, run] = useMutation(document);
  return (
    <button
      type="button"
      className="button primary"
      aria-describedby="campaign-title"
      disabled={fetching}
      onClick={async () => props.onDone(problemOf((await run({ id: props.campaignId })).error))}
    >
      {label}
    </button>
  );
}

/** The lifecycle transitions among `actions` (the server's `myActions`), as buttons. */
export function CampaignActions(props: { actions: readonly string[]; campaignId: string; onDone(problem?: Problem): void }) {
  const transitions = props.actions.filter(isTransition);
  if (transitions.length === 0) return null;
  return (
    <div className="card-actions">
      {transitions.map((action) => (
        <TransitionButton key={action} action={action} campaignId={props.campaignId} onDone={props.onDone} />
      ))}
    </div>
  );
}
