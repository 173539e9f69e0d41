import { type FormEvent, type ReactNode, useState } from 'react';
import { type AnyVariables, type DocumentInput, useMutation } from 'urql';
import { type Problem, problemOf } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

/** Saves a side's fields: the API's problem with them, whether the last save went through, and `onSaved` after it. */
export function useSave<Data, Variables extends AnyVariables>(document: DocumentInput<Data, Variables>, onSaved: () => void) {
  const [problem, setProblem] = useState<Problem>();
  const [saved, setSaved] = useState(false);
  const [{ fetching }, run] = useMutation(document);
  const save = async (variables: Variables) => {
    const result = await run(variables);
    setProblem(problemOf(result.error));
    setSaved(!result.error);
    if (!result.error) onSaved();
  };
  return { problem, saved, busy: fetching, save };
}

/**
 * A team's part of the test as a form: every control disabled unless the server lets the caller edit it now, the
 * save button only then, and the API's answer below (field complaints are shown by the fields themselves).
 */
export function SideForm(props: {
  side: 'red' | 'blue';
  title: string;
  editable: boolean;
  state: { busy: boolean; problem: Problem | undefined; saved: boolean };
  onSubmit(): void;
  children: ReactNode;
}) {
  const titleId = `${props.side}-title`;
  return (
    <form
      aria-labelledby={titleId}
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      <fieldset disabled={!props.editable || props.state.busy}>
        <legend className="visually-hidden">{`${props.title} results`}</legend>
        {props.children}
        {props.editable && (
          <button type="submit" className="button">
            {`Save ${props.side} results`}
          </button>
        )}
      </fieldset>
      <Outcome problem={props.state.problem} done={props.state.saved && `${props.title.split(' ')[0]} results saved.`} fieldsShown="any" />
    </form>
  );
}
