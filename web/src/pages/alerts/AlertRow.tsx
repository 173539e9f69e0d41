import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type CombinedError, useMutation } from 'urql';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { problemOf } from '../../components/problems.ts';
import { ACTION_LABELS, SEVERITY_LABELS, STATUS_LABELS } from './labels.ts';

export const AlertRowFragment = graphql(`
  fragment AlertRow on AlertInstance {
    id title subject severity status firedAt note availableActions
  }
`);

const AcknowledgeDocument = graphql(`
  mutation AcknowledgeAlert($id: UUID!, $note: String) { acknowledgeAlert(id: $id, note: $note) { id status note availableActions } }
`);
const ResolveDocument = graphql(`
  mutation ResolveAlert($id: UUID!, $note: String) { resolveAlert(id: $id, note: $note) { id status note availableActions } }
`);
const DismissDocument = graphql(`
  mutation DismissAlert($id: UUID!, $note: String) { dismissAlert(id: $id, note: $note) { id status note availableActions } }
`);

type Run = (variables: { id: string; note?: string }) => Promise<{ error?: CombinedError }>;

/**
 * One alert as a table row; the action buttons only when `canAct` (the caller's role is in the managing set).
 * An action opens a note field in place; the action happens on confirming it.
 */
export function AlertRow(props: { alert: FragmentType<typeof AlertRowFragment>; canAct: boolean; onDone(problem?: string): void }) {
  const alert = useFragment(AlertRowFragment, props.alert);
  const [acknowledge, runAcknowledge] = useMutation(AcknowledgeDocument);
  const [resolve, runResolve] = useMutation(ResolveDocument);
  const [dismiss, runDismiss] = useMutation(DismissDocument);
  const [pending, setPending] = useState<string>();
  const noteField = useRef<HTMLInputElement>(null);
  // The action's button gives way to the note field: focus follows it there.
  useEffect(() => {
    if (pending) noteField.current?.focus();
  }, [pending]);
  const runs: Record<string, Run> = { acknowledge: runAcknowledge, resolve: runResolve, dismiss: runDismiss };
  const busy = acknowledge.fetching || resolve.fetching || dismiss.fetching;
  const titleId = `alert-${alert.id}`;
  const actions = alert.availableActions.filter((action) => action in runs);
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending) return;
    const note = String(new FormData(event.currentTarget).get('note') ?? '').trim();
    const result = await runs[pending]!({ id: alert.id, note: note || undefined });
    setPending(undefined);
    props.onDone(problemOf(result.error)?.message);
  };
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
          {pending ? (
            <form className="inline-form" aria-label={`${ACTION_LABELS[pending]} the alert`} onSubmit={confirm}>
              <label htmlFor={`alert-note-${alert.id}`}>Note (optional)</label>
              <input id={`alert-note-${alert.id}`} name="note" aria-describedby={titleId} ref={noteField} />
              <button type="submit" className="button small primary" disabled={busy}>
                Confirm {ACTION_LABELS[pending]?.toLowerCase()}
              </button>
              <button type="button" className="button small" disabled={busy} onClick={() => setPending(undefined)}>
                Cancel
              </button>
            </form>
          ) : (
            <div className="row-actions">
              {actions.map((action) => (
                <button
                  key={action}
                  type="button"
                  className="button small"
                  aria-describedby={titleId}
                  disabled={busy}
                  onClick={() => setPending(action)}
                >
                  {ACTION_LABELS[action] ?? action}
                </button>
              ))}
            </div>
          )}
        </td>
      )}
    </tr>
  );
}
