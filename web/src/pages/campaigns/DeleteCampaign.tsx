import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { problemOf, type Problem } from '../../components/problems.ts';
import { Outcome } from '../../components/Outcome.tsx';

const DeleteCampaignDocument = graphql(`mutation DeleteCampaign($id: UUID!) { deleteCampaign(id: $id) }`);

/** "Delete campaign", confirmed in place; on success the campaigns list opens. Its tests stay, outside any campaign. */
export function DeleteCampaign(props: { campaignId: string }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, remove] = useMutation(DeleteCampaignDocument);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (asked.current) startRef.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  const confirm = async () => {
    const result = await remove({ id: props.campaignId }, { additionalTypenames: ['Campaign'] });
    setProblem(problemOf(result.error));
    if (result.error) setConfirming(false);
    else navigate('/campaigns');
  };
  return (
    <>
      {!confirming && (
        <button ref={startRef} type="button" className="button danger" onClick={() => setConfirming(true)}>
          Delete campaign
        </button>
      )}
      {confirming && (
        <fieldset className="confirm">
          <legend>Delete this campaign for good? Its tests stay, outside any campaign.</legend>
          <button ref={confirmRef} type="button" className="button small danger" disabled={fetching} onClick={confirm}>
            Confirm deletion
          </button>{' '}
          <button type="button" className="button small" onClick={() => setConfirming(false)}>
            Keep the campaign
          </button>
        </fieldset>
      )}
      <Outcome problem={problem} />
    </>
  );
}
