import { useCallback } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { TestState } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { inRoleSet } from '../../access.tsx';
import { Link } from 'react-router';
import { PlatformSelect } from '../../components/PlatformSelect.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { BoardColumn } from './BoardColumn.tsx';
import { useLiveMoves } from './live-moves.ts';
import { BOARD_STATES } from './states.ts';

/** Cards per column and page: the `limit` written in the board's document, which bounds its cost. */
export const PAGE_SIZE = 20;

const BoardDocument = graphql(`
  query Board(
    $campaignId: UUID, $assignedTo: UUID, $platform: String,
    $draft: Int, $red: Int, $blue: Int, $review: Int, $validated: Int, $rejected: Int
  ) {
    draft: tests(filter: { state: draft, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $draft) { ...BoardColumn }
    red_executing: tests(filter: { state: red_executing, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $red) { ...BoardColumn }
    blue_evaluating: tests(filter: { state: blue_evaluating, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $blue) { ...BoardColumn }
    in_review: tests(filter: { state: in_review, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $review) { ...BoardColumn }
    validated: tests(filter: { state: validated, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $validated) { ...BoardColumn }
    rejected: tests(filter: { state: rejected, campaignId: $campaignId, assignedTo: $assignedTo, platform: $platform }, limit: 20, offset: $rejected) { ...BoardColumn }
  }
`);

const CampaignsDocument = graphql(`
  query BoardCampaigns {
    campaigns(limit: 200) { items { id name } }
  }
`);

/** The URL parameter holding each column's offset. */
const OFFSET_PARAM: Record<TestState, 'draft' | 'red' | 'blue' | 'review' | 'validated' | 'rejected'> = {
  draft: 'draft',
  red_executing: 'red',
  blue_evaluating: 'blue',
  in_review: 'review',
  validated: 'validated',
  rejected: 'rejected',
};

const offsetOf = (search: URLSearchParams, state: TestState) => offsetIn(search, OFFSET_PARAM[state]);

/** The test board: a column per state, a page of cards per column, cards moving live as anyone acts. */
export default function BoardPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const campaignId = search.get('campaign') || undefined;
  const platform = search.get('platform') || undefined;
  const mine = search.get('mine') === '1';
  const assignedTo = mine ? viewer.id : search.get('assignee') || undefined;
  const offsets = Object.fromEntries(BOARD_STATES.map(({ state }) => [OFFSET_PARAM[state], offsetOf(search, state)]));
  const [{ data, error }, refresh] = useQuery({
    query: BoardDocument,
    variables: { campaignId, assignedTo, platform, ...offsets },
  });
  const [{ data: campaigns }] = useQuery({ query: CampaignsDocument });
  const reload = useCallback(() => refresh({ requestPolicy: 'network-only' }), [refresh]);
  const moves = useLiveMoves(campaignId, data, reload);
  const movedIds = new Set(moves.map((move) => move.testId));

  const resetPages = Object.fromEntries(Object.values(OFFSET_PARAM).map((key) => [key, undefined]));

  return (
    <section aria-labelledby="board-title" className="board-page">
      <div className="page-head">
        <h1 id="board-title">Test board</h1>
        {inRoleSet(viewer, 'leads') && (
          <Link className="button primary" to={campaignId ? `/tests/new?campaign=${encodeURIComponent(campaignId)}` : '/tests/new'}>
            New test
          </Link>
        )}
        <div className="filters">
          <label htmlFor="campaign">Campaign</label>
          <select
            id="campaign"
            value={campaignId ?? ''}
            onChange={(event) => update({ ...resetPages, campaign: event.target.value || undefined })}
          >
            <option value="">All campaigns</option>
            {campaigns?.campaigns.items.map((campaign) => (
              <option key={campaign.id} value={campaign.id}>
                {campaign.name}
              </option>
            ))}
          </select>
          <PlatformSelect id="board-platform" value={platform} onChange={(chosen) => update({ ...resetPages, platform: chosen })} />
          <label className="checkbox">
            <input
              type="checkbox"
              checked={mine}
              onChange={(event) => update({ ...resetPages, mine: event.target.checked ? '1' : undefined, assignee: undefined })}
            />
            Only tests assigned to me
          </label>
        </div>
      </div>
      {error && <p role="alert">The board could not be loaded: {error.message}</p>}
      <div className="board">
        {BOARD_STATES.map(({ state, label }) => (
          <BoardColumn
            key={state}
            state={state}
            label={label}
            page={data?.[state]}
            arrivals={moves.filter((move) => move.toState === state).map((move) => move.test)}
            departed={movedIds}
            onChanged={reload}
            onPage={(offset) => update({ [OFFSET_PARAM[state]]: offsetValue(offset) })}
          />
        ))}
      </div>
    </section>
  );
}
