import { Link } from 'react-router';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { day, statusLabel } from './format.ts';
import { ProgressBar } from './ProgressBar.tsx';

export const CampaignRowFragment = graphql(`
  fragment CampaignRow on Campaign {
    id
    name
    type
    status
    startDate
    endDate
    progress { validated total percentage }
  }
`);

function CampaignRow(props: { campaign: FragmentType<typeof CampaignRowFragment> }) {
  const campaign = useFragment(CampaignRowFragment, props.campaign);
  return (
    <tr>
      <td className="text">
        <Link to={`/campaigns/${campaign.id}`}>{campaign.name}</Link>
      </td>
      <td>{statusLabel(campaign.status)}</td>
      <td className="text">{campaign.type}</td>
      <td>{day(campaign.startDate)}</td>
      <td>{day(campaign.endDate)}</td>
      <td>
        <ProgressBar {...campaign.progress} label={`Progress of ${campaign.name}`} />
      </td>
    </tr>
  );
}

/** One page of campaigns as a table. */
export function CampaignTable(props: { campaigns: ({ id: string } & FragmentType<typeof CampaignRowFragment>)[]; caption: string }) {
  return (
    <table className="campaign-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Status</th>
          <th scope="col">Type</th>
          <th scope="col">Start (UTC)</th>
          <th scope="col">End (UTC)</th>
          <th scope="col">Progress</th>
        </tr>
      </thead>
      <tbody>
        {props.campaigns.map((campaign) => (
          <CampaignRow key={campaign.id} campaign={campaign} />
        ))}
      </tbody>
    </table>
  );
}
