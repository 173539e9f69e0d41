import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import type { CampaignStatus } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { useUrlState } from '../../url-state.ts';
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

const isStatus = (value: string | null): value is CampaignStatus => CAMPAIGN_STATUSES.some((entry) => entry.status === value);

/** The campaigns, newest first, a page at a time, filtered by status and text (all in the URL); leads create them here. */
export default function CampaignsPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const wanted = search.get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const text = search.get('q') ?? '';
  const offset = Math.max(0, Number(search.get('offset')) || 0);
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
          <label htmlFor="campaign-status">Status</label>
          <select
            id="campaign-status"
            value={status ?? ''}
            onChange={(event) => update({ status: event.target.value || undefined, offset: undefined })}
          >
            <option value="">Every status</option>
            {CAMPAIGN_STATUSES.map((entry) => (
              <option key={entry.status} value={entry.status}>
                {entry.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <p role="alert">The campaigns could not be loaded: {error.message}</p>}
      {page && (
        <>
          <CampaignTable campaigns={page.items} caption={`Campaigns ${shown}`} />
          {page.total > page.limit && (
            <nav className="pager" aria-label="Campaign pages">
              <button
                type="button"
                className="button small"
                disabled={page.offset === 0}
                onClick={() => update({ offset: page.offset > page.limit ? String(page.offset - page.limit) : undefined })}
              >
                Previous
              </button>
              <span>{shown}</span>
              <button
                type="button"
                className="button small"
                disabled={page.offset + page.limit >= page.total}
                onClick={() => update({ offset: String(page.offset + page.limit) })}
              >
                Next
              </button>
            </nav>
          )}
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
