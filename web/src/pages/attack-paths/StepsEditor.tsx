import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { AttackStepExpectation } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { EXPECTATION_LABELS } from './labels.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const PathStepsFragment = graphql(`
  fragment PathSteps on AttackPath {
    id
    steps { id position expectedOutcome notes technique { ttpId name } }
  }
`);

const AddStepDocument = graphql(`
  mutation AddAttackPathStep($id: UUID!, $input: AddAttackPathStepInput!) { addAttackPathStep(id: $id, input: $input) { id version } }
`);
const RemoveStepDocument = graphql(`
  mutation RemoveAttackPathStep($id: UUID!, $stepId: UUID!) { removeAttackPathStep(id: $id, stepId: $stepId) { id version } }
`);
const ReorderDocument = graphql(`
  mutation ReorderAttackPathSteps($id: UUID!, $input: ReorderAttackPathStepsInput!) { reorderAttackPathSteps(id: $id, input: $input) { id version } }
`);

/** The path's steps in order; for the roles that write paths, add, remove and move them. */
export function StepsEditor(props: { path: FragmentType<typeof PathStepsFragment>; canEdit: boolean; onChanged(): void }) {
  const path = useFragment(PathStepsFragment, props.path);
  const [, removeStep] = useMutation(RemoveStepDocument);
  const [reordering, reorder] = useMutation(ReorderDocument);
  const [problem, setProblem] = useState<string>();
  const done = (error: Parameters<typeof problemOf>[0]) => {
    setProblem(error && `The steps were not changed: ${problemOf(error)?.message}`);
    props.onChanged();
  };
  const move = async (index: number, by: -1 | 1) => {
    const ids = path.steps.map((step) => step.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    done((await reorder({ id: path.id, input: { stepIds: ids } })).error);
  };
  return (
    <section aria-labelledby="steps-title">
      <h2 id="steps-title">Steps</h2>
      <Outcome problem={problem} />
      {path.steps.length === 0 ? (
        <p>No steps yet.</p>
      ) : (
        <ol className="steps">
          {path.steps.map((step, index) => {
            const label = `step ${step.position} (${step.technique.ttpId})`;
            return (
              <li key={step.id}>
                <Link to={`/techniques/${encodeURIComponent(step.technique.ttpId)}`}>
                  {step.technique.ttpId} {step.technique.name}
                </Link>{' '}
                <span className="hint">expected: {EXPECTATION_LABELS[step.expectedOutcome]}</span>
                {step.notes && <span className="text step-notes">{step.notes}</span>}
                {props.canEdit && (
                  <span className="row-actions">
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Move ${label} up`}
                      disabled={index === 0 || reordering.fetching}
                      onClick={() => move(index, -1)}
                    >
                      Up
                    </button>
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Move ${label} down`}
                      disabled={index === path.steps.length - 1 || reordering.fetching}
                      onClick={() => move(index, 1)}
                    >
                      Down
                    </button>
                    <button
                      type="button"
                      className="button small"
                      aria-label={`Remove ${label}`}
                      onClick={async () => done((await removeStep({ id: path.id, stepId: step.id })).error)}
                    >
                      Remove
                    </button>
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {props.canEdit && <AddStepForm pathId={path.id} onAdded={props.onChanged} />}
    </section>
  );
}

function AddStepForm(props: { pathId: string; onAdded(): void }) {
  const [adding, addStep] = useMutation(AddStepDocument);
  const [problem, setProblem] = useState<Problem>();
  return (
    <form
      className="panel inline-form"
      aria-labelledby="add-step-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const formElement = event.currentTarget;
        const form = new FormData(formElement);
        const notes = String(form.get('notes') ?? '');
        const result = await addStep({
          id: props.pathId,
          input: {
            technique: String(form.get('technique')).trim(),
            expectedOutcome: String(form.get('expectedOutcome')) as AttackStepExpectation,
            notes: notes || undefined,
          },
        });
        setProblem(problemOf(result.error));
        if (!result.error) {
          formElement.reset();
          props.onAdded();
        }
      }}
    >
      <h3 id="add-step-title">Add a step</h3>
      <Field id="step-technique" label="Technique (ATT&CK id, e.g. T1059.001)" error={fieldProblem(problem, 'technique')}>
        {(describedBy) => <input id="step-technique" name="technique" required aria-describedby={describedBy} />}
      </Field>
      <Field id="step-expected" label="Expected outcome" error={fieldProblem(problem, 'expectedOutcome')}>
        {(describedBy) => (
          <select id="step-expected" name="expectedOutcome" defaultValue="detected" aria-describedby={describedBy}>
            {Object.entries(EXPECTATION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="step-notes" label="Step notes" error={fieldProblem(problem, 'notes')}>
        {(describedBy) => <input id="step-notes" name="notes" aria-describedby={describedBy} />}
      </Field>
      <Outcome problem={problem} fieldsShown={['technique', 'expectedOutcome', 'notes']} />
      <button type="submit" className="button primary" disabled={adding.fetching}>
        Add the step
      </button>
    </form>
  );
}
