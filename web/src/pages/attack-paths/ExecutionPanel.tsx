import { useEffect, useRef, useState } from 'react';
import { type CombinedError, useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { AttackStepOutcome } from '../../gql/graphql.ts';
import { problemOf } from '../../components/problems.ts';
import { ExecutionSummary } from './ExecutionSummary.tsx';
import { EXECUTION_ACTION_LABELS, EXECUTION_STATUS_LABELS, EXPECTATION_LABELS, OUTCOME_LABELS } from './labels.ts';
import { Outcome } from '../../components/Outcome.tsx';

const ExecutionDocument = graphql(`
  query AttackPathExecutionDetail($id: UUID!) {
    attackPathExecution(id: $id) {
      id status notes startedAt completedAt abortedAt abortReason myActions canRecordOutcomes
      steps { id position ttpId techniqueName expectedOutcome outcome outcomeNotes occurredAt recordedBy { username } }
      ...ExecutionSummary
    }
  }
`);

const StartDocument = graphql(`mutation StartExecution($id: UUID!) { startAttackPathExecution(id: $id) { id status } }`);
const CompleteDocument = graphql(`mutation CompleteExecution($id: UUID!) { completeAttackPathExecution(id: $id) { id status } }`);
const AbortDocument = graphql(`
  mutation AbortExecution($id: UUID!, $input: AbortAttackPathExecutionInput) {
    abortAttackPathExecution(id: $id, input: $input) { id status abortReason }
  }
`);
const RecordDocument = graphql(`
  mutation RecordStepOutcome($id: UUID!, $stepId: UUID!, $input: RecordAttackStepOutcomeInput!) {
    recordAttackPathStepOutcome(id: $id, stepId: $stepId, input: $input) { id version }
  }
`);

/**
 * One execution: its transitions (the caller's `myActions`), each step's outcome recorded in turn, and the summary.
 * `changes` counts the changes seen live (a status, a step's outcome, tests created): each one asks the server again.
 */
export function ExecutionPanel(props: { executionId: string; changes: number }) {
  const [{ data, error }, refresh] = useQuery({ query: ExecutionDocument, variables: { id: props.executionId } });
  useEffect(() => {
    if (props.changes) refresh({ requestPolicy: 'network-only' });
  }, [props.changes, refresh]);
  const [, start] = useMutation(StartDocument);
  const [, complete] = useMutation(CompleteDocument);
  const [, abort] = useMutation(AbortDocument);
  const [acting, setActing] = useState(false);
  const [aborting, setAborting] = useState(false);
  const reasonField = useRef<HTMLInputElement>(null);
  // The Abort button gives way to the reason field: focus follows it there.
  useEffect(() => {
    if (aborting) reasonField.current?.focus();
  }, [aborting]);
  const [problem, setProblem] = useState<string>();
  if (error) return <p role="alert">The execution could not be loaded: {error.message}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const execution = data.attackPathExecution;
  const runs: Record<string, (variables: { id: string }) => Promise<{ error?: CombinedError }>> = { start, complete };
  const act = async (action: string, reason?: string) => {
    setActing(true);
    const result = action === 'abort' ? await abort({ id: execution.id, input: { reason } }) : await runs[action]!({ id: execution.id });
    setActing(false);
    setAborting(false);
    setProblem(result.error && `The execution did not ${action}: ${problemOf(result.error)?.message}`);
    refresh({ requestPolicy: 'network-only' });
  };
  return (
    <section aria-labelledby="execution-title" className="panel">
      <h2 id="execution-title">
        Execution: <span data-testid="execution-status">{EXECUTION_STATUS_LABELS[execution.status]}</span>
      </h2>
      {execution.notes && <p className="text">{execution.notes}</p>}
      {execution.abortReason && <p className="text">Aborted: {execution.abortReason}</p>}
      {execution.myActions.length > 0 && !aborting && (
        <div className="row-actions">
          {execution.myActions.map((action) => (
            <button
              key={action}
              type="button"
              className="button"
              disabled={acting}
              onClick={() => (action === 'abort' ? setAborting(true) : act(action))}
            >
              {EXECUTION_ACTION_LABELS[action] ?? action} the execution
            </button>
          ))}
        </div>
      )}
      {aborting && (
        <form
          className="inline-form"
          aria-label="Abort the execution"
          onSubmit={(event) => {
            event.preventDefault();
            const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
            void act('abort', reason || undefined);
          }}
        >
          <label htmlFor="abort-reason">Reason for aborting (optional)</label>
          <input id="abort-reason" name="reason" ref={reasonField} />
          <button type="submit" className="button primary" disabled={acting}>
            Confirm abort
          </button>
          <button type="button" className="button" disabled={acting} onClick={() => setAborting(false)}>
            Cancel
          </button>
        </form>
      )}
      <Outcome problem={problem} />
      <table className="wide-table">
        <caption>Steps of this execution</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Technique</th>
            <th scope="col">Expected</th>
            <th scope="col">Outcome</th>
            {execution.canRecordOutcomes && <th scope="col">Record</th>}
          </tr>
        </thead>
        <tbody>
          {execution.steps.map((step) => (
            <tr key={step.id}>
              <td>{step.position}</td>
              <td className="text">
                {step.ttpId} {step.techniqueName}
              </td>
              <td>{EXPECTATION_LABELS[step.expectedOutcome]}</td>
              <td data-testid={`outcome-${step.position}`}>
                {step.outcome ? OUTCOME_LABELS[step.outcome] : 'Not recorded'}
                {step.outcomeNotes && <span className="text cell-note">{step.outcomeNotes}</span>}
                {step.recordedBy && <span className="hint cell-note">by {step.recordedBy.username}</span>}
              </td>
              {execution.canRecordOutcomes && (
                <td>
                  <RecordForm
                    executionId={execution.id}
                    stepId={step.id}
                    position={step.position}
                    current={step.outcome ?? undefined}
                    onDone={setProblem}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <ExecutionSummary execution={execution} />
    </section>
  );
}

function RecordForm(props: {
  executionId: string;
  stepId: string;
  position: number;
  current?: AttackStepOutcome;
  onDone(problem?: string): void;
}) {
  const [recording, record] = useMutation(RecordDocument);
  const ids = { outcome: `outcome-${props.stepId}`, notes: `outcome-notes-${props.stepId}` };
  return (
    <form
      className="inline-form"
      aria-label={`Record step ${props.position}`}
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const notes = String(form.get('notes') ?? '');
        const result = await record({
          id: props.executionId,
          stepId: props.stepId,
          input: { outcome: String(form.get('outcome')) as AttackStepOutcome, notes: notes || undefined },
        });
        props.onDone(result.error && `Step ${props.position} was not recorded: ${problemOf(result.error)?.message}`);
      }}
    >
      <label htmlFor={ids.outcome}>Outcome of step {props.position}</label>
      <select id={ids.outcome} name="outcome" defaultValue={props.current ?? 'detected'}>
        {Object.entries(OUTCOME_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <label htmlFor={ids.notes}>Notes for step {props.position}</label>
      <input id={ids.notes} name="notes" />
      <button type="submit" className="button small" disabled={recording.fetching}>
        Record step {props.position}
      </button>
    </form>
  );
}
