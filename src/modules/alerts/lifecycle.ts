import { Roles } from '../../auth/roles.ts';
import type { AlertStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';

export type AlertAction = 'acknowledge' | 'resolve' | 'dismiss';

/** Every rule that depends on the status an alert is in. */
export interface AlertStateRule {
  /** Still firing: no second alert for the same rule and subject while one is in such a status. */
  firing: boolean;
}

/** The one table of alert statuses, in lifecycle order, beside the transition table below. */
export const ALERT_STATES: Readonly<Record<AlertStatus, AlertStateRule>> = {
  open: { firing: true },
  acknowledged: { firing: true },
  resolved: { firing: false },
  dismissed: { firing: false },
};

export interface AlertTransition extends TransitionRow<AlertStatus, AlertAction> {
  from: readonly AlertStatus[];
  to: AlertStatus;
  path: AlertAction;
  mutation: `${AlertAction}Alert`;
  stamps: readonly ('acknowledgedAt' | 'resolvedAt' | 'dismissedAt' | 'closedAt')[];
}

/** The one alert transition table: routes, mutations, errors and docs all read it. */
export const ALERT_TRANSITIONS: readonly AlertTransition[] = [
  {
    action: 'acknowledge',
    path: 'acknowledge',
    mutation: 'acknowledgeAlert',
    from: ['open'],
    to: 'acknowledged',
    roles: Roles.leads,
    audit: 'acknowledge_alert',
    stamps: ['acknowledgedAt'],
    summary: 'open → acknowledged',
  },
  {
    action: 'resolve',
    path: 'resolve',
    mutation: 'resolveAlert',
    from: ['open', 'acknowledged'],
    to: 'resolved',
    roles: Roles.leads,
    audit: 'resolve_alert',
    stamps: ['resolvedAt', 'closedAt'],
    summary: 'open or acknowledged → resolved',
  },
  {
    action: 'dismiss',
    path: 'dismiss',
    mutation: 'dismissAlert',
    from: ['open', 'acknowledged'],
    to: 'dismissed',
    roles: Roles.leads,
    audit: 'dismiss_alert',
    stamps: ['dismissedAt', 'closedAt'],
    summary: 'open or acknowledged → dismissed',
  },
];

/** The alert lifecycle: the two tables above and what derives from them. */
export const alertLifecycle = defineLifecycle({
  noun: 'alert',
  inState: (status: AlertStatus) => `the alert is ${status}`,
  states: ALERT_STATES,
  transitions: ALERT_TRANSITIONS,
});

/** Alerts that still count as firing: no second one for the same rule and subject while one of these exists. */
export const OPEN_STATUSES = alertLifecycle.statesWhere((rule) => rule.firing);
