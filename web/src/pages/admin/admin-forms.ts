import { useState } from 'react';
import { type AnyVariables, type DocumentInput, useMutation } from 'urql';
import { type Problem, problemOf } from '../../components/problems.ts';

export { fieldProblem } from '../../components/problems.ts';
export type { Problem } from '../../components/problems.ts';

/** Runs a mutation and keeps what came of it: the API's problem, or the success message to announce. */
export function useAction<Data, Variables extends AnyVariables>(document: DocumentInput<Data, Variables>) {
  const [problem, setProblem] = useState<Problem>();
  const [done, setDone] = useState<string>();
  const [{ fetching }, mutate] = useMutation(document);
  const run = async (variables: Variables, success: string | ((data: Data) => string)) => {
    setDone(undefined);
    const result = await mutate(variables);
    setProblem(problemOf(result.error));
    if (!result.error && result.data) setDone(typeof success === 'string' ? success : success(result.data));
    return result.error ? undefined : result.data;
  };
  const reset = () => {
    setProblem(undefined);
    setDone(undefined);
  };
  return { problem, done, busy: fetching, run, reset };
}

/**
 * A save action held by a page: a form keyed by what it edits is mounted afresh after each save, and its outcome
 * must survive that.
 */
export type Action<Data, Variables extends AnyVariables> = ReturnType<typeof useAction<Data, Variables>>;

/** `null` for an empty text box, the text otherwise. */
export const orNull = (value: string) => (value.trim() === '' ? null : value);

/** A date and time for a table cell, in the reader's locale. */
export const when = (value: unknown) => (value ? new Date(String(value)).toLocaleString() : '—');
