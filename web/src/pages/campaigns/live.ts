import { useEffect, useState } from 'react';
import { useSubscription } from 'urql';
import { graphql } from '../../gql';
import type { CampaignStatus } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { stateLabel } from '../board/states.ts';
import { CAMPAIGN_STATUSES, statusLabel } from './format.ts';

const CampaignChangedDocument = graphql(`
  subscription CampaignChanged($campaignId: UUID!) {
    campaignChanged(campaignId: $campaignId) { campaignId change actorId occurredAt }
  }
`);

const CampaignTestMovedDocument = graphql(`
  subscription CampaignTestMoved($campaignId: UUID!) {
    testStateChanged(campaignId: $campaignId) { testId toState actorId occurredAt test { id name } }
  }
`);

const CampaignTestEditedDocument = graphql(`
  subscription CampaignTestEdited($campaignId: UUID!) {
    testChanged(campaignId: $campaignId) { testId change actorId occurredAt test { id name } }
  }
`);

const CHANGES: Record<string, string> = {
  updated: 'The campaign was edited.',
  scheduled: 'The schedule changed.',
  test_added: 'A test was added.',
  test_removed: 'A test was removed.',
  executed: 'A recurring occurrence ran.',
  deleted: 'The campaign was deleted.',
};

const TEST_CHANGES: Record<string, string> = { created: 'was created', campaign_added: 'was added' };

function campaignChangeText(change: string): string {
  if (CAMPAIGN_STATUSES.some(({ status }) => status === change)) return `The campaign is now ${statusLabel(change as CampaignStatus)}.`;
  return CHANGES[change] ?? 'The campaign changed.';
}

export interface CampaignLive {
  /** Someone deleted the campaign while it was open. */
  deleted: boolean;
  /** The latest change someone else made, in words (for a polite live region). */
  latest: string;
}

/**
 * Keeps an open campaign page current: a change of the campaign (`campaignChanged`), a state change of one of its
 * tests (`testStateChanged`) or another change of one (`testChanged`: a rename, an assignee, …) asks the page's query
 * again; changes made by others are also told in words.
 */
export function useCampaignLive(campaignId: string, refresh: () => void): CampaignLive {
  const { viewer } = useSession();
  const [changed] = useSubscription({ query: CampaignChangedDocument, variables: { campaignId } });
  const [moved] = useSubscription({ query: CampaignTestMovedDocument, variables: { campaignId } });
  const [edited] = useSubscription({ query: CampaignTestEditedDocument, variables: { campaignId } });
  const [latest, setLatest] = useState('');
  const change = changed.data?.campaignChanged;
  const move = moved.data?.testStateChanged;
  const edit = edited.data?.testChanged;
  useEffect(() => {
    if (!change) return;
    if (change.actorId !== viewer.id) setLatest(campaignChangeText(change.change));
    if (change.change !== 'deleted') refresh();
  }, [change, refresh, viewer.id]);
  useEffect(() => {
    if (!move) return;
    if (move.actorId !== viewer.id) setLatest(`${move.test.name} moved to ${stateLabel(move.toState)}.`);
    refresh();
  }, [move, refresh, viewer.id]);
  useEffect(() => {
    if (!edit) return;
    if (edit.actorId !== viewer.id) setLatest(`${edit.test.name} ${TEST_CHANGES[edit.change] ?? 'was changed'}.`);
    refresh();
  }, [edit, refresh, viewer.id]);
  return { deleted: change?.change === 'deleted', latest };
}
