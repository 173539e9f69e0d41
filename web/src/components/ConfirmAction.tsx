import { useEffect, useRef, useState } from 'react';

/**
 * A button for an action that cannot be undone, which asks first: the question, the confirming button (focused as it
 * appears) and a way back. `onConfirm` acts; the question closes once it has answered, and focus returns to the
 * button that asked whenever that button is still there (after Cancel, or after an action that failed).
 */
export function ConfirmAction(props: {
  label: string;
  question: string;
  confirmLabel: string;
  cancelLabel?: string;
  /** The asking button's look: a small one in a table row, a red one for a whole record. */
  look?: 'small' | 'danger';
  busy: boolean;
  onConfirm(): Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (asked.current) askRef.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  if (!confirming)
    return (
      <button ref={askRef} type="button" className={props.look ? `button ${props.look}` : 'button'} onClick={() => setConfirming(true)}>
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
        {props.confirmLabel}
      </button>{' '}
      <button type="button" className="button small" onClick={() => setConfirming(false)}>
        {props.cancelLabel ?? 'Cancel'}
      </button>
    </fieldset>
  );
}
