import type { CampaignStatus } from '../../gql/graphql.ts';

export const CAMPAIGN_STATUSES: { status: CampaignStatus; label: string }[] = [
  { status: 'draft', label: 'Draft' },
  { status: 'active', label: 'Active' },
  { status: 'completed', label: 'Completed' },
];

export const statusLabel = (status: CampaignStatus) => CAMPAIGN_STATUSES.find((entry) => entry.status === status)?.label ?? status;

/** A moment as a calendar day in UTC (campaign periods are kept in UTC), or a dash. */
export const day = (moment: string | null | undefined) => (moment ? moment.slice(0, 10) : '—');

/** The value of a date input (YYYY-MM-DD) as the first or last moment of that day in UTC; empty: null. */
export function momentOf(value: string, end: 'start' | 'end'): string | null {
  if (!value) return null;
  return `${value}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`;
}
