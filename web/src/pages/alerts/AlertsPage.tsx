import { useState } from 'react';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { useUrlState } from '../../url-state.ts';
import { AlertRow } from './AlertRow.tsx';
import { isSeverity, isStatus, SEVERITY_LABELS, STATUS_LABELS } from './labels.ts';

export const ALERT_PAGE_SIZE = 20;

const AlertsDocument = graphql(`
  query AlertsInbox($status: AlertStatus, $severity: AlertSeverity, $limit: Int!, $offset: Int!) {
    alerts(status: $status, severity: $severity, limit: $limit, offset: $offset) { id ...AlertRow }
    alertSummary { total byStatus { open acknowledged resolved dismissed } }
  }
`);

/** The alerts inbox: filters and the page offset in the URL, one request per view, the actions the API allows. */
export default function AlertsPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const status = search.get('status');
  const severity = search.get('severity');
  const offset = Math.max(0, Number(search.get('offset')) || 0);
  const [{ data, error, fetching }, refresh] = useQuery({
    query: AlertsDocument,
    // One more than a page says whether there is a next one.
    variables: {
      status: isStatus(status) ? status : undefined,
      severity: isSeverity(severity) ? severity : undefined,
      limit: ALERT_PAGE_SIZE + 1,
      offset,
    },
  });
  const [problem, setProblem] = useState<string>();
  const canAct = inRoleSet(viewer, 'leads');
  const rows = data?.alerts.slice(0, ALERT_PAGE_SIZE) ?? [];
  const hasNext = (data?.alerts.length ?? 0) > ALERT_PAGE_SIZE;
  const counts = data?.alertSummary.byStatus;

  return (
    <section aria-labelledby="alerts-title">
      <div className="page-head">
        <h1 id="alerts-title">Alerts</h1>
        {counts && (
          <p className="hint" data-testid="alert-counts">
            {counts.open} open, {counts.acknowledged} acknowledged, {counts.resolved} resolved, {counts.dismissed} dismissed
          </p>
        )}
      </div>
      <div className="filters">
        <label htmlFor="alert-status">Status</label>
        <select
          id="alert-status"
          value={status ?? ''}
          onChange={(event) => update({ status: event.target.value || undefined, offset: undefined })}
        >
          <option value="">Any status</option>
          {Object.entries(STATUS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor="alert-severity">Severity</label>
        <select
          id="alert-severity"
          value={severity ?? ''}
          onChange={(event) => update({ severity: event.target.value || undefined, offset: undefined })}
        >
          <option value="">Any severity</option>
          {Object.entries(SEVERITY_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {error && <p role="alert">The alerts could not be loaded: {error.message}</p>}
      {fetching && !data && <p className="loading">Loading…</p>}
      {data &&
        (rows.length === 0 ? (
          <p>No alerts match these filters.</p>
        ) : (
          <table className="wide-table">
            <caption>
              Alerts {offset + 1}–{offset + rows.length}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Subject</th>
                <th scope="col">Fired</th>
                {canAct && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((alert) => (
                <AlertRow
                  key={alert.id}
                  alert={alert}
                  canAct={canAct}
                  onDone={(refused) => {
                    setProblem(refused && `The alert was not changed: ${refused}`);
                    refresh({ requestPolicy: 'network-only' });
                  }}
                />
              ))}
            </tbody>
          </table>
        ))}
      <div className="pager">
        <button
          type="button"
          className="button small"
          disabled={offset === 0}
          onClick={() => update({ offset: offset > ALERT_PAGE_SIZE ? String(offset - ALERT_PAGE_SIZE) : undefined })}
        >
          Previous
        </button>
        <button
          type="button"
          className="button small"
          disabled={!hasNext}
          onClick={() => update({ offset: String(offset + ALERT_PAGE_SIZE) })}
        >
          Next
        </button>
      </div>
    </section>
  );
}
