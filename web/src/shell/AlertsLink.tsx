import { useEffect, useMemo } from 'react';
import { NavLink } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';

const OpenAlertsDocument = graphql(`
  query OpenAlerts {
    alertSummary { byStatus { open } }
  }
`);

const AlertNoticeDocument = graphql(`
  subscription AlertNotice {
    notificationAdded { id entityType }
  }
`);

/** Asking again on a timer catches alerts that reach nobody's notifications (e.g. for viewers); never more often. */
const REFRESH_MS = 60_000;

/** The "Alerts" link with the number of open alerts, refreshed when an alert notice arrives or an alert changes. */
export function AlertsLink() {
  const context = useMemo(() => ({ additionalTypenames: ['AlertInstance'] }), []);
  const [{ data }, refresh] = useQuery({ query: OpenAlertsDocument, context });
  const [notice] = useSubscription({ query: AlertNoticeDocument });
  const latest = notice.data?.notificationAdded;
  useEffect(() => {
    if (latest?.entityType === 'alert') refresh({ requestPolicy: 'network-only' });
  }, [latest, refresh]);
  useEffect(() => {
    const timer = setInterval(() => refresh({ requestPolicy: 'network-only' }), REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  const open = data?.alertSummary.byStatus.open ?? 0;
  return (
    <NavLink to="/alerts">
      Alerts
      {open > 0 && (
        <span className="nav-count">
          <span className="visually-hidden">, </span>
          {open > 99 ? '99+' : open}
          <span className="visually-hidden"> open</span>
        </span>
      )}
    </NavLink>
  );
}
