import type { AlertSeverity, AlertStatus } from '../../gql/graphql.ts';

export const STATUS_LABELS: Record<AlertStatus, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
  dismissed: 'Dismissed',
};

export const SEVERITY_LABELS: Record<AlertSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  informational: 'Informational',
};

/** The buttons of the transition actions the API names in `availableActions`. */
export const ACTION_LABELS: Record<string, string> = { acknowledge: 'Acknowledge', resolve: 'Resolve', dismiss: 'Dismiss' };

export const isStatus = (value: string | null): value is AlertStatus => value !== null && value in STATUS_LABELS;
export const isSeverity = (value: string | null): value is AlertSeverity => value !== null && value in SEVERITY_LABELS;
