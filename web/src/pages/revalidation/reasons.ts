import type { RevalidationReason } from '../../gql/graphql.ts';

export const REASON_LABELS: Record<RevalidationReason, string> = {
  validation_expired: 'Validation expired',
  validation_invalidated: 'Validation invalidated',
  infrastructure_change: 'Infrastructure change',
  coverage_stale: 'Coverage stale',
};

export const isReason = (value: string | null): value is RevalidationReason => value !== null && value in REASON_LABELS;
