import { useEffect, useRef, useState } from 'react';

/**
 * A delete button that asks first: the question, "Confirm deletion" (focused as it appears) and "Cancel".
 * `onConfirm` deletes; the question closes once it has answered.
 */
export function ConfirmDelete(props: { label: string; question: string; busy: boolean; onConfirm(): Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  if (!confirming)
    return (
      <button type="button" className="button" onClick={() => setConfirming(true)}>
        {props.label}
      </button>
    );
  return (
    <fieldset className="confirm">
      <legend>{props.question}</legend>
      <button
        ref={confirmRef}
        type="button"
        className="button small danger"
        disabled={props.busy}
        onClick={async () => {
          await props.onConfirm();
          setConfirming(false);
        }}
      >
        Confirm deletion
      </button>{' '}
      <button type="button" className="button small" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </fieldset>
  );
}
