import { useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { DetectionResult } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem } from '../../components/problems.ts';
import { SideForm, useSave } from './SideForm.tsx';

export const BluePartFragment = graphql(`
  fragment BluePart on Test {
    id
    detectionResult
    blueSummary
    myEdits
  }
`);

const UpdateBlueDocument = graphql(`
  mutation UpdateTestBlue($id: UUID!, $input: UpdateTestBlueInput!) {
    updateTestBlue(id: $id, input: $input) { id version ...BluePart }
  }
`);

const RESULTS: { value: DetectionResult; label: string }[] = [
  { value: 'detected', label: 'Detected' },
  { value: 'partially_detected', label: 'Partially detected' },
  { value: 'not_detected', label: 'Not detected' },
];

/** The blue team's part; editable only when the server lists `blue` in `myEdits`. */
export function BlueForm(props: { test: FragmentType<typeof BluePartFragment>; onSaved(): void }) {
  const test = useFragment(BluePartFragment, props.test);
  const editable = test.myEdits.includes('blue');
  const [detectionResult, setResult] = useState<string>(test.detectionResult ?? '');
  const [blueSummary, setSummary] = useState(test.blueSummary ?? '');
  const saving = useSave(UpdateBlueDocument, props.onSaved);
  return (
    <SideForm
      side="blue"
      title="Blue team"
      editable={editable}
      state={saving}
      onSubmit={async () => {
        const input = { detectionResult: (detectionResult || null) as DetectionResult | null, blueSummary };
        await saving.save({ id: test.id, input });
      }}
    >
      <Field id="detection-result" label="Detection result" error={fieldProblem(saving.problem, 'detectionResult')}>
        {(describedBy) => (
          <select id="detection-result" value={detectionResult} aria-describedby={describedBy} onChange={(e) => setResult(e.target.value)}>
            <option value="">Not recorded</option>
            {RESULTS.map((result) => (
              <option key={result.value} value={result.value}>
                {result.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id="blue-summary" label="Blue summary" error={fieldProblem(saving.problem, 'blueSummary')}>
        {(describedBy) => (
          <textarea
            id="blue-summary"
            rows={4}
            value={blueSummary}
            aria-describedby={describedBy}
            onChange={(e) => setSummary(e.target.value)}
          />
        )}
      </Field>
    </SideForm>
  );
}
