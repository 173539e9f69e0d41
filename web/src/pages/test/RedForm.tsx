import { useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { Field } from '../../components/Field.tsx';
import { fieldProblem } from '../../components/problems.ts';
import { SideForm, useSave } from './SideForm.tsx';

export const RedPartFragment = graphql(`
  fragment RedPart on Test {
    id
    procedureText
    toolUsed
    attackSuccess
    redSummary
    myEdits
  }
`);

const UpdateRedDocument = graphql(`
  mutation UpdateTestRed($id: UUID!, $input: UpdateTestRedInput!) {
    updateTestRed(id: $id, input: $input) { id version ...RedPart }
  }
`);

const SUCCESS = { '': null, yes: true, no: false } as const;
const successValue = (value: boolean | null | undefined) => (value === true ? 'yes' : value === false ? 'no' : '');

/** The red team's part; editable only when the server lists `red` in `myEdits`. */
export function RedForm(props: { test: FragmentType<typeof RedPartFragment>; onSaved(): void }) {
  const test = useFragment(RedPartFragment, props.test);
  const editable = test.myEdits.includes('red');
  const [procedureText, setProcedure] = useState(test.procedureText ?? '');
  const [toolUsed, setTool] = useState(test.toolUsed ?? '');
  const [attackSuccess, setSuccess] = useState(successValue(test.attackSuccess));
  const [redSummary, setSummary] = useState(test.redSummary ?? '');
  const saving = useSave(UpdateRedDocument, props.onSaved);
  return (
    <SideForm
      side="red"
      title="Red team"
      editable={editable}
      state={saving}
      onSubmit={async () => {
        const input = { procedureText, toolUsed, redSummary, attackSuccess: SUCCESS[attackSuccess as keyof typeof SUCCESS] };
        await saving.save({ id: test.id, input });
      }}
    >
      <Field id="procedure" label="Procedure" error={fieldProblem(saving.problem, 'procedureText')}>
        {(describedBy) => (
          <textarea
            id="procedure"
            rows={4}
            value={procedureText}
            aria-describedby={describedBy}
            onChange={(e) => setProcedure(e.target.value)}
          />
        )}
      </Field>
      <Field id="tool-used" label="Tool used" error={fieldProblem(saving.problem, 'toolUsed')}>
        {(describedBy) => (
          <input id="tool-used" value={toolUsed} aria-describedby={describedBy} onChange={(e) => setTool(e.target.value)} />
        )}
      </Field>
      <Field id="attack-success" label="Attack success" error={fieldProblem(saving.problem, 'attackSuccess')}>
        {(describedBy) => (
          <select id="attack-success" value={attackSuccess} aria-describedby={describedBy} onChange={(e) => setSuccess(e.target.value)}>
            <option value="">Not recorded</option>
            <option value="yes">Succeeded</option>
            <option value="no">Failed</option>
          </select>
        )}
      </Field>
      <Field id="red-summary" label="Red summary" error={fieldProblem(saving.problem, 'redSummary')}>
        {(describedBy) => (
          <textarea
            id="red-summary"
            rows={4}
            value={redSummary}
            aria-describedby={describedBy}
            onChange={(e) => setSummary(e.target.value)}
          />
        )}
      </Field>
    </SideForm>
  );
}
