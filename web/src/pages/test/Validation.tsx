import { useState } from 'react';
import { useMutation } from 'urql';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { ValidationStatus } from '../../gql/graphql.ts';
import { type Problem, problemOf } from '../../components/problems.ts';

export const ValidationPartFragment = graphql(`
  fragment ValidationPart on Test {
    id
    myActions
    pendingValidationSides
    redValidationStatus
    redValidationNotes
    blueValidationStatus
    blueValidationNotes
  }
`);

const ValidateRedDocument = graphql(`
  mutation ValidateRed($id: UUID!, $status: ValidationStatus!, $notes: String) {
    validateTestRed(id: $id, input: { redValidationStatus: $status, redValidationNotes: $notes }) { id state }
  }
`);
const ValidateBlueDocument = graphql(`
  mutation ValidateBlue($id: UUID!, $status: ValidationStatus!, $notes: String) {
    validateTestBlue(id: $id, input: { blueValidationStatus: $status, blueValidationNotes: $notes }) { id state }
  }
`);

const SIDES = {
  red: { title: 'Red validation', action: 'validate_red', document: ValidateRedDocument },
  blue: { title: 'Blue validation', action: 'validate_blue', document: ValidateBlueDocument },
} as const;
type Side = keyof typeof SIDES;

function Decide(props: { side: Side; testId: string; onDone(problem?: Problem): void }) {
  const { title, document } = SIDES[props.side];
  const [notes, setNotes] = useState('');
  const [{ fetching }, decide] = useMutation(document);
  const notesId = `${props.side}-validation-notes`;
  const send = async (status: ValidationStatus) => {
    const result = await decide({ id: props.testId, status, notes: notes || null });
    props.onDone(problemOf(result.error));
  };
  return (
    <fieldset disabled={fetching}>
      <legend>{title}</legend>
      <label htmlFor={notesId}>{`${title} notes`}</label>
      <textarea id={notesId} rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
      <div className="card-actions">
        <button type="button" className="button" onClick={() => send('approved')}>
          {`Approve ${props.side} side`}
        </button>
        <button type="button" className="button" onClick={() => send('rejected')}>
          {`Reject ${props.side} side`}
        </button>
      </div>
    </fieldset>
  );
}

const decision = (status: ValidationStatus | null | undefined, notes: string | null | undefined) =>
  status ? `${status}${notes ? `: ${notes}` : ''}` : 'pending';

/** The leads' dual validation: the decisions so far, and a form per side the caller may decide now. */
export function Validation(props: { test: FragmentType<typeof ValidationPartFragment>; onDone(problem?: Problem): void }) {
  const test = useFragment(ValidationPartFragment, props.test);
  const mine = (Object.keys(SIDES) as Side[]).filter((side) => test.myActions.includes(SIDES[side].action));
  return (
    <section aria-labelledby="validation-title">
      <h2 id="validation-title">Validation</h2>
      <dl className="facts">
        <dt>Red side</dt>
        <dd className="text">{decision(test.redValidationStatus, test.redValidationNotes)}</dd>
        <dt>Blue side</dt>
        <dd className="text">{decision(test.blueValidationStatus, test.blueValidationNotes)}</dd>
        <dt>Pending</dt>
        <dd>{test.pendingValidationSides.join(', ') || 'none'}</dd>
      </dl>
      {mine.map((side) => (
        <Decide key={side} side={side} testId={test.id} onDone={props.onDone} />
      ))}
    </section>
  );
}
