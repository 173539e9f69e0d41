import { useState } from 'react';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { FilterSelect } from '../../components/FilterSelect.tsx';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { AlertRow } from './AlertRow.tsx';
import { isSeverity, isStatus, SEVERITY_LABELS, STATUS_LABELS } from './labels.ts';
import { Outcome } from '../../components/Outcome.tsx';

export const ALERT_PAGE_SIZE = 20;

const AlertsDocument = graphql(`
  query AlertsInbox($status: AlertStatus, $severity: AlertSeverity, $limit: Int!, $offset: Int!) {
    alerts(status: $status, severity: $severity, limit: $limit, offset: $offset) { items { id ...AlertRow } total }
    alertSummary { total byStatus { open acknowledged resolved dismissed } }
  }
`);

/** The alerts inbox: filters and the page offset in the URL, one request per view, the actions the API allows. */
export default function AlertsPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const status = search.get('status');
  const severity = search.get('severity');
  const offset = offsetIn(search);
  const [{ data, error, fetching }, refresh] = useQuery({
    query: AlertsDocument,
    variables: {
      status: isStatus(status) ? status : undefined,
      severity: isSeverity(severity) ? severity : undefined,
      limit: ALERT_PAGE_SIZE,
      offset,
    },
  });
  const [problem, setProblem] = useState<string>();
  const canAct = inRoleSet(viewer, 'leads');
  const rows = data?.alerts.items ?? [];
  const hasNext = offset + rows.length < (data?.alerts.total ?? 0);
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
        <FilterSelect
          id="alert-status"
          label="Status"
          any="Any status"
          value={status}
          options={STATUS_LABELS}
          onChange={(value) => update({ status: value, offset: undefined })}
        />
        <FilterSelect
          id="alert-severity"
          label="Severity"
          any="Any severity"
          value={severity}
          options={SEVERITY_LABELS}
          onChange={(value) => update({ severity: value, offset: undefined })}
        />
      </div>
      <Outcome problem={problem} />
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
      <Pager
        label="Alert"
        offset={offset}
        limit={ALERT_PAGE_SIZE}
        count={rows.length}
        more={hasNext}
        onOffset={(next) => update({ offset: offsetValue(next) })}
      />
    </section>
  );
}
