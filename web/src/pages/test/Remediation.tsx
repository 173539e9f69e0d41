import { useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { RemediationStatus } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem } from '../../components/problems.ts';
import { useSave } from './SideForm.tsx';
import { Outcome } from '../../components/Outcome.tsx';

export const RemediationPartFragment = graphql(`
  fragment RemediationPart on Test {
    id
    myEdits
    remediationStatus
    remediationSteps
    remediationCompletedAt
    remediationAssignee { username displayName }
  }
`);

const UpdateRemediationDocument = graphql(`
  mutation UpdateTestRemediation($id: UUID!, $input: UpdateTestRemediationInput!) {
    updateTestRemediation(id: $id, input: $input) { id version ...RemediationPart }
  }
`);

const STATUSES: { value: RemediationStatus; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'completed', label: 'Completed' },
  { value: 'not_applicable', label: 'Not applicable' },
];

const statusLabel = (status: RemediationStatus | null | undefined) =>
  STATUSES.find((entry) => entry.value === status)?.label ?? 'Not tracked';

/** The remediation of what the test found: its status for everyone, a form when `myEdits` lists `remediation`. */
export function Remediation(props: { test: FragmentType<typeof RemediationPartFragment>; onSaved(): void }) {
  const test = useFragment(RemediationPartFragment, props.test);
  const editable = test.myEdits.includes('remediation');
  const [status, setStatus] = useState<string>(test.remediationStatus ?? '');
  const [steps, setSteps] = useState(test.remediationSteps ?? '');
  const saving = useSave(UpdateRemediationDocument, props.onSaved);
  const assignee = test.remediationAssignee;
  return (
    <section aria-labelledby="remediation-title">
      <h2 id="remediation-title">Remediation</h2>
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="remediation-status">{statusLabel(test.remediationStatus)}</dd>
        <dt>Assignee</dt>
        <dd className="text">{assignee ? assignee.displayName || assignee.username : 'nobody'}</dd>
        {test.remediationCompletedAt && (
          <>
            <dt>Completed</dt>
            <dd>{new Date(String(test.remediationCompletedAt)).toLocaleString()}</dd>
          </>
        )}
      </dl>
      {!editable && test.remediationSteps && <p className="text description">{test.remediationSteps}</p>}
      {editable && (
        <form
          aria-label="Remediation"
          onSubmit={(event) => {
            event.preventDefault();
            const input = { remediationStatus: (status || null) as RemediationStatus | null, remediationSteps: steps };
            void saving.save({ id: test.id, input });
          }}
        >
          <fieldset disabled={saving.busy}>
            <legend className="visually-hidden">Remediation</legend>
            <Field id="remediation-status-choice" label="Remediation status" error={fieldProblem(saving.problem, 'remediationStatus')}>
              {(describedBy) => (
                <select
                  id="remediation-status-choice"
                  value={status}
                  aria-describedby={describedBy}
                  onChange={(e) => setStatus(e.target.value)}
                >
                  <option value="">Not tracked</option>
                  {STATUSES.map((entry) => (
                    <option key={entry.value} value={entry.value}>
                      {entry.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="remediation-steps" label="Remediation steps" error={fieldProblem(saving.problem, 'remediationSteps')}>
              {(describedBy) => (
                <textarea
                  id="remediation-steps"
                  rows={4}
                  value={steps}
                  aria-describedby={describedBy}
                  onChange={(e) => setSteps(e.target.value)}
                />
              )}
            </Field>
            <button type="submit" className="button">
              Save remediation
            </button>
          </fieldset>
          <Outcome problem={saving.problem} done={saving.saved && 'Remediation saved.'} fieldsShown="any" />
        </form>
      )}
    </section>
  );
}
