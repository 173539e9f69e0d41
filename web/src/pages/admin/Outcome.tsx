import type { Problem } from '../test/problems.ts';

/** The outcome of an action: the API's refusal in words (unless a field shows it), or the success. */
export function Outcome(props: { problem?: Problem; done?: string; fieldsShown?: readonly string[] }) {
  const { problem, done } = props;
  if (problem && !(problem.field && props.fieldsShown?.includes(problem.field)))
    return (
      <p role="alert" className="error">
        {problem.message}
      </p>
    );
  if (done) return <p role="status">{done}</p>;
  return null;
}
