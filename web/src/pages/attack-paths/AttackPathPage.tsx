import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useSubscription } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { useUrlState } from '../../url-state.ts';
import { problemOf } from '../../components/problems.ts';
import { ExecutionPanel } from './ExecutionPanel.tsx';
import { EXECUTION_STATUS_LABELS } from './labels.ts';
import { StepsEditor } from './StepsEditor.tsx';
import { Outcome } from '../../components/Outcome.tsx';

const EXECUTIONS_SHOWN = 10;

const PathDocument = graphql(`
  query AttackPathDetail($id: UUID!, $executions: Int!) {
    attackPath(id: $id) {
      id name description stepCount executionCount
      ...PathSteps
      executions(limit: $executions) { id status createdAt notes createdBy { username } }
    }
  }
`);

const ExecutionChangedDocument = graphql(`
  subscription AttackPathExecutionChanged($id: UUID!) {
    attackPathExecutionStateChanged(attackPathId: $id) { executionId toStatus occurredAt }
  }
`);

const ExecutionEditedDocument = graphql(`
  subscription AttackPathExecutionEdited($id: UUID!) {
    attackPathExecutionChanged(attackPathId: $id) { executionId change occurredAt }
  }
`);

const CreateExecutionDocument = graphql(`
  mutation CreateAttackPathExecution($id: UUID!, $input: CreateAttackPathExecutionInput) {
    createAttackPathExecution(attackPathId: $id, input: $input) { id }
  }
`);

/** One attack path: its steps (edited by the roles that write paths), its executions, and the chosen execution (live). */
export default function AttackPathPage() {
  const { id = '' } = useParams();
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const selected = search.get('execution') ?? undefined;
  const [{ data, error, fetching }, refresh] = useQuery({ query: PathDocument, variables: { id, executions: EXECUTIONS_SHOWN } });
  const [live] = useSubscription(
    { query: ExecutionChangedDocument, variables: { id } },
    (changes: number | undefined) => (changes ?? 0) + 1,
  );
  // A step's outcome or the tests created from an execution, recorded by anyone.
  const [edited] = useSubscription(
    { query: ExecutionEditedDocument, variables: { id } },
    (changes: number | undefined) => (changes ?? 0) + 1,
  );
  const changes = (live.data ?? 0) + (edited.data ?? 0);
  useEffect(() => {
    if (changes) refresh({ requestPolicy: 'network-only' });
  }, [changes, refresh]);
  const [creation, createExecution] = useMutation(CreateExecutionDocument);
  const [problem, setProblem] = useState<string>();
  const canWrite = inRoleSet(viewer, 'allButViewer');

  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (error || !data) return <p role="alert">The attack path could not be loaded: {error?.message}</p>;
  const path = data.attackPath;
  return (
    <article aria-labelledby="path-title" className="attack-path-page">
      <p>
        <Link to="/attack-paths">All attack paths</Link>
      </p>
      <h1 id="path-title">{path.name}</h1>
      {path.description && <p className="description">{path.description}</p>}
      <div className="path-layout">
        <StepsEditor path={path} canEdit={canWrite} onChanged={() => refresh({ requestPolicy: 'network-only' })} />
        <section aria-labelledby="executions-title">
          <h2 id="executions-title">Executions</h2>
          {canWrite && (
            <form
              className="inline-form"
              onSubmit={async (event) => {
                event.preventDefault();
                const formElement = event.currentTarget;
                const notes = String(new FormData(formElement).get('notes') ?? '');
                const result = await createExecution({ id: path.id, input: { notes: notes || undefined } });
                setProblem(result.error && `No execution was created: ${problemOf(result.error)?.message}`);
                if (result.data) {
                  formElement.reset();
                  update({ execution: result.data.createAttackPathExecution.id });
                }
              }}
            >
              <label htmlFor="execution-notes">Execution notes</label>
              <input id="execution-notes" name="notes" />
              <button type="submit" className="button primary" disabled={creation.fetching || path.stepCount === 0}>
                New execution
              </button>
            </form>
          )}
          <Outcome problem={problem} />
          {path.executions.length === 0 ? (
            <p>No executions yet.</p>
          ) : (
            <ul className="executions">
              {path.executions.map((execution) => (
                <li key={execution.id}>
                  <Link
                    to={{ search: `?execution=${encodeURIComponent(execution.id)}` }}
                    aria-current={execution.id === selected ? 'true' : undefined}
                  >
                    {new Date(execution.createdAt).toLocaleString()}: {EXECUTION_STATUS_LABELS[execution.status]}
                  </Link>{' '}
                  <span className="hint">by {execution.createdBy.username}</span>
                  {execution.notes && <span className="text cell-note">{execution.notes}</span>}
                </li>
              ))}
            </ul>
          )}
          {path.executionCount > path.executions.length && (
            <p className="hint">
              The latest {path.executions.length} of {path.executionCount} executions.
            </p>
          )}
        </section>
      </div>
      {selected && <ExecutionPanel key={selected} executionId={selected} changes={changes} />}
    </article>
  );
}
