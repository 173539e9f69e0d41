import type { ReactNode } from 'react';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import type { Problem } from './admin-forms.ts';

/**
 * The actions on one record of the administration: its own (a sync, a test send), its deletion after a confirmation,
 * then what the own action and the deletion came to.
 */
export function RecordActions(props: {
  children: ReactNode;
  outcome: { problem?: Problem; done?: string };
  deleting: { problem?: Problem; busy: boolean };
  deleteLabel: string;
  question: string;
  onDelete(): Promise<unknown>;
}) {
  return (
    <>
      <div className="admin-actions">
        {props.children}
        <ConfirmAction
          label={props.deleteLabel}
          question={props.question}
          confirmLabel="Confirm deletion"
          busy={props.deleting.busy}
          onConfirm={props.onDelete}
        />
      </div>
      <Outcome problem={props.outcome.problem} done={props.outcome.done} />
      <Outcome problem={props.deleting.problem} />
    </>
  );
}
