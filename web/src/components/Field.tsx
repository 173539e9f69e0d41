import type { ReactNode } from 'react';

/** A labelled control with the API's complaint about it, if any, beside it and announced. */
export function Field(props: { id: string; label: string; error?: string; children(describedBy: string | undefined): ReactNode }) {
  const errorId = `${props.id}-error`;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children(props.error ? errorId : undefined)}
      {props.error && (
        <p id={errorId} className="error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
