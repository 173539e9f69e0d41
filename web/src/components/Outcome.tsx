import type { Problem } from './problems.ts';

/**
 * The outcome of an action: the refusal in words (unless a field of the form shows it: those of `fieldsShown`,
 * or any with `'any'`), or the success.
 */
export function Outcome(props: { problem?: Problem | string | null; done?: string | false; fieldsShown?: readonly string[] | 'any' }) {
  const { done, fieldsShown } = props;
  const problem = typeof props.problem === 'string' ? { message: props.problem } : props.problem;
  const field = problem?.field;
  const shownByField = Boolean(field) && (fieldsShown === 'any' || Boolean(field && fieldsShown?.includes(field)));
  if (problem && !shownByField)
    return (
      <p role="alert" className="error">
        {problem.message}
      </p>
    );
  if (done) return <p role="status">{done}</p>;
  return null;
}
