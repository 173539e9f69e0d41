import { type FormEvent, useState } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { useSave } from '../test/SideForm.tsx';
import { PeriodFields } from './CreateCampaignForm.tsx';
import { momentOf } from './format.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const CampaignScheduleFragment = graphql(`
  fragment CampaignSchedule on Campaign { id startDate endDate recurrence }
`);

const ScheduleDocument = graphql(`
  mutation ScheduleCampaign($id: UUID!, $input: CampaignScheduleInput!) {
    scheduleCampaign(id: $id, input: $input) { id version ...CampaignSchedule }
  }
`);

const dayValue = (moment: string | null | undefined) => moment?.slice(0, 10) ?? '';

/** The period and recurrence of a campaign, for the roles `myActions` lets schedule it (empty fields clear). */
export function ScheduleForm(props: { campaign: FragmentType<typeof CampaignScheduleFragment>; onSaved(): void }) {
  const campaign = useFragment(CampaignScheduleFragment, props.campaign);
  const [startDate, setStart] = useState(dayValue(campaign.startDate));
  const [endDate, setEnd] = useState(dayValue(campaign.endDate));
  const [recurrence, setRecurrence] = useState(campaign.recurrence ?? '');
  const saving = useSave(ScheduleDocument, props.onSaved);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await saving.save({
      id: campaign.id,
      input: { startDate: momentOf(startDate, 'start'), endDate: momentOf(endDate, 'end'), recurrence: recurrence.trim() || null },
    });
  };
  return (
    <form aria-labelledby="schedule-title" className="campaign-form" onSubmit={submit}>
      <h2 id="schedule-title">Schedule</h2>
      <fieldset disabled={saving.busy}>
        <legend className="visually-hidden">Period and recurrence</legend>
        <PeriodFields
          idPrefix="schedule"
          startDate={startDate}
          endDate={endDate}
          recurrence={recurrence}
          problem={saving.problem}
          onStart={setStart}
          onEnd={setEnd}
          onRecurrence={setRecurrence}
        />
        <button type="submit" className="button">
          Save schedule
        </button>
      </fieldset>
      <Outcome problem={saving.problem} done={saving.saved && 'Schedule saved.'} fieldsShown="any" />
    </form>
  );
}
