import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { UpdateDataSourceMutation, UpdateDataSourceMutationVariables } from '../../gql/graphql.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { Field } from '../../components/Field.tsx';
import { type Action, fieldProblem, orNull, useAction, when } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';

const RUNS_PAGE = 10;
const RUN_COLUMNS = ['Started', 'Status', 'Trigger', 'Finished', 'Changes or error'];
/** The live status asks again at most this often while a run is queued or running. */
const POLL_MS = 2000;

const DataSourceDocument = graphql(`
  query AdminDataSource($id: String!, $offset: Int!, $limit: Int!) {
    dataSource(id: $id) { id name kind location schedule enabled status error licence { name } }
    dataSourceRuns(id: $id, offset: $offset, limit: $limit) {
      total
      items { id status trigger startedAt finishedAt error changes }
    }
  }
`);

const UpdateDataSourceDocument = graphql(`
  mutation UpdateDataSource($id: String!, $input: UpdateDataSourceInput!) {
    updateDataSource(id: $id, input: $input) { id location schedule enabled nextRunTime }
  }
`);

const SyncDataSourceDocument = graphql(`
  mutation SyncDataSource($id: String!) {
    syncDataSource(id: $id) { detail run { id status } }
  }
`);

const ACTIVE = new Set(['queued', 'running']);

/** One source: its location and schedule, "Sync now" with the run followed live, and its runs newest first. */
export function DataSourceDetail(props: { id: string; onChanged(): void }) {
  const [search, setSearch] = useUrlState();
  const offset = offsetIn(search, 'runs');
  const [{ data, error }, refetch] = useQuery({ query: DataSourceDocument, variables: { id: props.id, offset, limit: RUNS_PAGE } });
  // Held here: the form is keyed by what it saved and mounted afresh once the saved source is read back.
  const saving = useAction(UpdateDataSourceDocument);
  const source = data?.dataSource;
  const active = source ? ACTIVE.has(source.status) : false;
  const { onChanged } = props;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearInterval(timer);
  }, [active, refetch]);
  const wasActive = useRef(false);
  useEffect(() => {
    if (wasActive.current && !active) onChanged();
    wasActive.current = active;
  }, [active, onChanged]);
  if (error) return <p role="alert">The source could not be loaded: {error.message}</p>;
  if (!source || !data) return <p className="loading">Loading…</p>;
  return (
    <section aria-labelledby="source-title" className="admin-card">
      <h2 id="source-title">{source.name}</h2>
      <p className="hint">{`Licence: ${source.licence.name}`}</p>
      <SourceForm
        key={`${source.location}|${source.schedule}|${String(source.enabled)}`}
        id={source.id}
        location={source.location}
        schedule={source.schedule ?? ''}
        enabled={source.enabled}
        saving={saving}
        onSaved={() => {
          refetch({ requestPolicy: 'network-only' });
          onChanged();
        }}
      />
      <SyncNow id={source.id} status={source.status} error={source.error} onQueued={() => refetch({ requestPolicy: 'network-only' })} />
      <PagedTable
        caption={`Run history: ${data.dataSourceRuns.total} runs, newest first`}
        columns={RUN_COLUMNS}
        pager={{
          label: 'Run',
          offset,
          limit: RUNS_PAGE,
          count: data.dataSourceRuns.items.length,
          total: data.dataSourceRuns.total,
          onOffset: (next) => setSearch({ runs: offsetValue(next) }),
        }}
      >
        {data.dataSourceRuns.items.map((run) => (
          <tr key={run.id}>
            <td>{when(run.startedAt)}</td>
            <td>{run.status}</td>
            <td>{run.trigger}</td>
            <td>{when(run.finishedAt)}</td>
            <td className="text">{run.error ?? summary(run.changes)}</td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}

/** A run's changes as short text: counts by kind of item. */
function summary(changes: unknown): string {
  if (!changes || typeof changes !== 'object') return '—';
  const parts = Object.entries(changes as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'number' || (typeof value === 'object' && value !== null))
    .map(([kind, value]) => (typeof value === 'number' ? `${kind}: ${value}` : `${kind}: ${countOf(value)}`));
  return parts.length ? parts.join(', ') : '—';
}

const countOf = (value: unknown) =>
  Array.isArray(value)
    ? String(value.length)
    : Object.entries(value as Record<string, unknown>)
        .filter(([, count]) => typeof count === 'number')
        .map(([change, count]) => `${String(count)} ${change}`)
        .join(' ') || '…';

type SaveAction = Action<UpdateDataSourceMutation, UpdateDataSourceMutationVariables>;

function SourceForm(props: { id: string; location: string; schedule: string; enabled: boolean; saving: SaveAction; onSaved(): void }) {
  const [location, setLocation] = useState(props.location);
  const [schedule, setSchedule] = useState(props.schedule);
  const [enabled, setEnabled] = useState(props.enabled);
  const { saving } = props;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await saving.run({ id: props.id, input: { location, schedule: orNull(schedule), enabled } }, 'Source saved.')) props.onSaved();
  };
  return (
    <form aria-label="Source settings" onSubmit={submit}>
      <fieldset disabled={saving.busy} className="admin-grid">
        <legend className="visually-hidden">Source settings</legend>
        <Field id="source-location" label="Location" error={fieldProblem(saving.problem, 'location')}>
          {(describedBy) => (
            <input id="source-location" value={location} aria-describedby={describedBy} onChange={(e) => setLocation(e.target.value)} />
          )}
        </Field>
        <Field id="source-schedule" label="Schedule (cron, UTC; empty: on request only)" error={fieldProblem(saving.problem, 'schedule')}>
          {(describedBy) => (
            <input id="source-schedule" value={schedule} aria-describedby={describedBy} onChange={(e) => setSchedule(e.target.value)} />
          )}
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Scheduled syncs on (manual syncs always run)
        </label>
      </fieldset>
      <button type="submit" className="button primary" disabled={saving.busy}>
        Save source
      </button>
      <Outcome problem={saving.problem} done={saving.done} fieldsShown={['location', 'schedule']} />
    </form>
  );
}

function SyncNow(props: { id: string; status: string; error: string | null; onQueued(): void }) {
  const syncing = useAction(SyncDataSourceDocument);
  const active = ACTIVE.has(props.status);
  return (
    <div className="admin-actions">
      <button
        type="button"
        className="button"
        disabled={syncing.busy || active}
        onClick={async () => {
          if (await syncing.run({ id: props.id }, (data) => data.syncDataSource.detail)) props.onQueued();
        }}
      >
        Sync now
      </button>
      <p role="status" aria-live="polite">
        {`Status: ${props.status.replace('_', ' ')}${active ? ' (checking every 2 seconds)' : ''}`}
        {!active && props.status === 'failed' && props.error ? ` — ${props.error}` : ''}
      </p>
      <Outcome problem={syncing.problem} done={active ? syncing.done : undefined} />
    </div>
  );
}
