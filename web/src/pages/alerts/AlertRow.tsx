import { type CombinedError, useMutation } from 'urql';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { problemOf } from '../test/problems.ts';
import { ACTION_LABELS, SEVERITY_LABELS, STATUS_LABELS } from './labels.ts';

export const AlertRowFragment = graphql(`
  fragment AlertRow on AlertInstance {
    id title subject severity status firedAt note availableActions
  }
`);

const AcknowledgeDocument = graphql(`mutation AcknowledgeAlert($id: UUID!) { acknowledgeAlert(id: $id) { id status availableActions } }`);
const ResolveDocument = graphql(`mutation ResolveAlert($id: UUID!) { resolveAlert(id: $id) { id status availableActions } }`);
const DismissDocument = graphql(`mutation DismissAlert($id: UUID!) { dismissAlert(id: $id) { id status availableActions } }`);

/** One alert as a table row; the action buttons only when `canAct` (the caller's role is in the managing set). */
export function AlertRow(props: { alert: FragmentType<typeof AlertRowFragment>; canAct: boolean; onDone(problem?: string): void }) {
  const alert = useFragment(AlertRowFragment, props.alert);
  const [acknowledge, runAcknowledge] = useMutation(AcknowledgeDocument);
  const [resolve, runResolve] = useMutation(ResolveDocument);
  const [dismiss, runDismiss] = useMutation(DismissDocument);
  const runs: Record<string, (variables: { id: string }) => Promise<{ error?: CombinedError }>> = {
    acknowledge: runAcknowledge,
    resolve: runResolve,
    dismiss: runDismiss,
  };
  const busy = acknowledge.fetching || resolve.fetching || dismiss.fetching;
  const titleId = `alert-${alert.id}`;
  const actions = alert.availableActions.filter((action) => action in runs);
  return (
    <tr>
      <td>
        <span id={titleId} className="text">
          {alert.title}
        </span>
        {alert.note && <span className="cell-note text">Note: {alert.note}</span>}
      </td>
      <td className="nowrap">
        <span className={`severity severity-${alert.severity}`}>{SEVERITY_LABELS[alert.severity]}</span>
      </td>
      <td className="nowrap">{STATUS_LABELS[alert.status]}</td>
      <td className="text">{alert.subject}</td>
      <td>
        <time dateTime={alert.firedAt}>{new Date(alert.firedAt).toLocaleString()}</time>
      </td>
      {props.canAct && (
        <td>
          <div className="row-actions">
            {actions.map((action) => (
              <button
                key={action}
                type="button"
                className="button small"
                aria-describedby={titleId}
                disabled={busy}
                onClick={async () => {
                  const result = await runs[action]({ id: alert.id });
                  props.onDone(problemOf(result.error)?.message);
                }}
              >
                {ACTION_LABELS[action] ?? action}
              </button>
            ))}
          </div>
        </td>
      )}
    </tr>
  );
}
