import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { problemOf, type Problem } from '../../components/problems.ts';
import { ConfirmAction } from '../../components/ConfirmAction.tsx';
import { Outcome } from '../../components/Outcome.tsx';

const DeleteCampaignDocument = graphql(`mutation DeleteCampaign($id: UUID!) { deleteCampaign(id: $id) }`);

/** "Delete campaign", confirmed in place; on success the campaigns list opens. Its tests stay, outside any campaign. */
export function DeleteCampaign(props: { campaignId: string }) {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, remove] = useMutation(DeleteCampaignDocument);
  const confirm = async () => {
    const result = await remove({ id: props.campaignId }, { additionalTypenames: ['Campaign'] });
    setProblem(problemOf(result.error));
    if (!result.error) navigate('/campaigns');
  };
  return (
    <>
      <ConfirmAction
        look="danger"
        label="Delete campaign"
        question="Delete this campaign for good? Its tests stay, outside any campaign."
        confirmLabel="Confirm deletion"
        cancelLabel="Keep the campaign"
        busy={fetching}
        onConfirm={confirm}
      />
      <Outcome problem={problem} />
    </>
  );
}
