import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import type { CampaignStatus } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { FilterSelect } from '../../components/FilterSelect.tsx';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { CampaignTable } from './CampaignTable.tsx';
import { CreateCampaignForm } from './CreateCampaignForm.tsx';
import { CAMPAIGN_STATUSES } from './format.ts';
import { FromThreatActorForm } from './FromThreatActorForm.tsx';

export const CAMPAIGN_PAGE_SIZE = 20;

const CampaignsDocument = graphql(`
  query Campaigns($status: CampaignStatus, $search: String, $offset: Int!, $limit: Int!) {
    campaigns(filter: { status: $status, search: $search }, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items { id ...CampaignRow }
    }
  }
`);

const STATUS_OPTIONS = Object.fromEntries(CAMPAIGN_STATUSES.map((entry) => [entry.status, entry.label]));

const isStatus = (value: string | null): value is CampaignStatus => CAMPAIGN_STATUSES.some((entry) => entry.status === value);

/** The campaigns, newest first, a page at a time, filtered by status and text (all in the URL); leads create them here. */
export default function CampaignsPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const wanted = search.get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const text = search.get('q') ?? '';
  const offset = offsetIn(search);
  const [{ data, error }] = useQuery({
    query: CampaignsDocument,
    variables: { status, search: text.trim() || undefined, offset, limit: CAMPAIGN_PAGE_SIZE },
  });
  const page = data?.campaigns;
  const creates = inRoleSet(viewer, 'leads');
  const shown = page && page.items.length > 0 ? `${page.offset + 1}–${page.offset + page.items.length} of ${page.total}` : 'none';
  return (
    <section aria-labelledby="campaigns-title" className="campaigns-page">
      <div className="page-head">
        <h1 id="campaigns-title">Campaigns</h1>
        <div className="filters">
          <label htmlFor="campaign-search">Search</label>
          <input
            id="campaign-search"
            type="search"
            defaultValue={text}
            onChange={(event) => update({ q: event.target.value || undefined, offset: undefined })}
          />
          <FilterSelect
            id="campaign-status"
            label="Status"
            any="Every status"
            value={status}
            options={STATUS_OPTIONS}
            onChange={(value) => update({ status: value, offset: undefined })}
          />
        </div>
      </div>
      {error && <p role="alert">The campaigns could not be loaded: {error.message}</p>}
      {page && (
        <>
          <CampaignTable campaigns={page.items} caption={`Campaigns ${shown}`} />
          <Pager
            label="Campaign"
            offset={page.offset}
            limit={page.limit}
            count={page.items.length}
            total={page.total}
            onOffset={(next) => update({ offset: offsetValue(next) })}
          />
        </>
      )}
      {creates && (
        <div className="campaign-forms">
          <CreateCampaignForm />
          <FromThreatActorForm />
        </div>
      )}
    </section>
  );
}
