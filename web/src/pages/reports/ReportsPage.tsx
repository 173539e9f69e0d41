import { type FormEvent, useState } from 'react';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { PlatformSelect } from '../../components/PlatformSelect.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { useUrlState } from '../../url-state.ts';
import { DownloadFailed, download, type Progress } from './download.ts';
import { REPORTS, type ReportInputs, type ReportKey, reportPath } from './reports.ts';

const ReportOptionsDocument = graphql(`
  query ReportOptions($withCampaigns: Boolean!) {
    tactics { shortName name }
    campaigns(limit: 100) @include(if: $withCampaigns) { total items { id name status } }
  }
`);

/** Who may generate documents: the server's role set (never a copy of its rule). */
const GENERATE_SET = 'leadsAndViewer';

type Status =
  | { phase: 'idle' }
  | { phase: 'working'; progress: Progress | null }
  | { phase: 'done'; name: string; size: number }
  | { phase: 'failed'; message: string; field: keyof ReportInputs | null };

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** The input an API field error belongs to (the path's id is the campaign's or the technique's). */
function inputOf(field: string | null, report: ReportKey): keyof ReportInputs | null {
  if (field === 'id') return report === 'purple_campaign' ? 'campaign' : 'technique';
  return field === 'year' || field === 'quarter' || field === 'tactic' || field === 'platform' ? field : null;
}

/** The reports: choose one, give what it needs, download it (PDF or CSV) with the session cookie. */
export default function ReportsPage() {
  const { viewer } = useSession();
  const canGenerate = inRoleSet(viewer, GENERATE_SET);
  const offered = REPORTS.filter((report) => canGenerate || !report.generated);
  const [search, update] = useUrlState();
  // The choice answers at once; the URL (to share the view) follows.
  const [choice, setChoice] = useState(search.get('report'));
  const chosen = offered.find((report) => report.key === choice) ?? offered[0];
  const [inputs, setInputs] = useState<ReportInputs>({});
  const [status, setStatus] = useState<Status>({ phase: 'idle' });
  const [{ data, error }] = useQuery({ query: ReportOptionsDocument, variables: { withCampaigns: canGenerate } });

  const set = (name: keyof ReportInputs) => (value: string | undefined) => setInputs((current) => ({ ...current, [name]: value }));
  const fieldError = (name: keyof ReportInputs) => (status.phase === 'failed' && status.field === name ? status.message : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen.key === 'purple_campaign' && !inputs.campaign)
      return setStatus({ phase: 'failed', message: 'Choose a campaign.', field: 'campaign' });
    if (chosen.key === 'technique' && !inputs.technique?.trim())
      return setStatus({ phase: 'failed', message: 'Give a technique id, e.g. T1059.', field: 'technique' });
    setStatus({ phase: 'working', progress: null });
    try {
      const fallback = `${chosen.key.replace(/_/g, '-')}.${chosen.format.toLowerCase()}`;
      const file = await download(reportPath(chosen.key, inputs), fallback, (progress) => setStatus({ phase: 'working', progress }));
      setStatus({ phase: 'done', ...file });
    } catch (failure) {
      const field = failure instanceof DownloadFailed ? inputOf(failure.field, chosen.key) : null;
      const message = failure instanceof Error ? failure.message : String(failure);
      setStatus({ phase: 'failed', message: field ? message : `The report could not be produced: ${message}`, field });
    }
  }

  const working = status.phase === 'working';
  return (
    <section aria-labelledby="reports-title" className="reports">
      <h1 id="reports-title">Reports</h1>
      {!canGenerate && (
        <p className="hint">Your role may download the coverage table; the PDF documents are for leads, administrators and viewers.</p>
      )}
      {error && <p role="alert">The report options could not be loaded: {error.message}</p>}
      <form onSubmit={submit} className="report-form" noValidate>
        <fieldset>
          <legend>Report</legend>
          {offered.map((report) => (
            <div key={report.key} className="report-choice">
              <input
                type="radio"
                id={`choice-${report.key}`}
                name="report"
                value={report.key}
                checked={report.key === chosen.key}
                aria-describedby={`choice-${report.key}-about`}
                onChange={() => {
                  setChoice(report.key);
                  update({ report: report.key });
                  setStatus({ phase: 'idle' });
                }}
              />
              <span>
                <label htmlFor={`choice-${report.key}`}>
                  <strong>{report.label}</strong> <span className="count">({report.format})</span>
                </label>
                <span id={`choice-${report.key}-about`} className="hint">
                  {report.description}
                </span>
              </span>
            </div>
          ))}
        </fieldset>
        <ReportFields choice={chosen.key} inputs={inputs} set={set} fieldError={fieldError} options={data} />
        <button type="submit" className="button primary" disabled={working}>
          Download {chosen.format}
        </button>
      </form>
      <div role="status" className="report-status">
        {working && (
          <>
            <progress
              aria-label="Report download"
              max={status.progress?.total ?? undefined}
              value={status.progress?.total ? status.progress.received : undefined}
            />{' '}
            {status.progress ? `Downloading… ${kilobytes(status.progress.received)}` : `Producing the ${chosen.format}…`}
          </>
        )}
        {status.phase === 'done' && `Downloaded ${status.name} (${kilobytes(status.size)}).`}
      </div>
      {status.phase === 'failed' && !status.field && (
        <p role="alert" className="error">
          {status.message}
        </p>
      )}
    </section>
  );
}

interface FieldsProps {
  choice: ReportKey;
  inputs: ReportInputs;
  set: (name: keyof ReportInputs) => (value: string | undefined) => void;
  fieldError: (name: keyof ReportInputs) => string | undefined;
  options:
    | {
        tactics: { shortName: string; name: string }[];
        campaigns?: { total: number; items: { id: string; name: string; status: string }[] };
      }
    | undefined;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} role="alert" className="error">
      {message}
    </p>
  ) : null;
}

/** The inputs the chosen report needs, each labelled, with the API's error for it beside it. */
function ReportFields({ choice, inputs, set, fieldError, options }: FieldsProps) {
  const described = (name: keyof ReportInputs) => (fieldError(name) ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {});
  switch (choice) {
    case 'coverage_csv':
      return (
        <div className="filters">
          <label htmlFor="report-tactic">Tactic</label>
          <select id="report-tactic" value={inputs.tactic ?? ''} onChange={(event) => set('tactic')(event.target.value || undefined)}>
            <option value="">All tactics</option>
            {options?.tactics.map((tactic) => (
              <option key={tactic.shortName} value={tactic.shortName}>
                {tactic.name}
              </option>
            ))}
          </select>
          <PlatformSelect id="report-platform" value={inputs.platform} onChange={set('platform')} />
        </div>
      );
    case 'quarterly_summary': {
      const now = new Date();
      return (
        <div className="filters">
          <div className="field">
            <label htmlFor="report-year">Year</label>
            <input
              id="report-year"
              type="number"
              min={2000}
              max={2100}
              placeholder={String(now.getUTCFullYear())}
              value={inputs.year ?? ''}
              onChange={(event) => set('year')(event.target.value || undefined)}
              {...described('year')}
            />
            <FieldError id="year-error" message={fieldError('year')} />
          </div>
          <div className="field">
            <label htmlFor="report-quarter">Quarter</label>
            <select
              id="report-quarter"
              value={inputs.quarter ?? ''}
              onChange={(event) => set('quarter')(event.target.value || undefined)}
              {...described('quarter')}
            >
              <option value="">The current quarter</option>
              {[1, 2, 3, 4].map((quarter) => (
                <option key={quarter} value={quarter}>
                  Q{quarter}
                </option>
              ))}
            </select>
            <FieldError id="quarter-error" message={fieldError('quarter')} />
          </div>
        </div>
      );
    }
    case 'purple_campaign':
      return (
        <div className="field">
          <label htmlFor="report-campaign">Campaign</label>
          <select
            id="report-campaign"
            value={inputs.campaign ?? ''}
            onChange={(event) => set('campaign')(event.target.value || undefined)}
            {...described('campaign')}
          >
            <option value="">Choose a campaign</option>
            {options?.campaigns?.items.map((campaign) => (
              <option key={campaign.id} value={campaign.id}>
                {campaign.name} ({campaign.status})
              </option>
            ))}
          </select>
          {options?.campaigns && options.campaigns.total > options.campaigns.items.length && (
            <p className="hint">
              The {options.campaigns.items.length} newest of {options.campaigns.total} campaigns.
            </p>
          )}
          <FieldError id="campaign-error" message={fieldError('campaign')} />
        </div>
      );
    case 'technique':
      return (
        <div className="field">
          <label htmlFor="report-technique">Technique id</label>
          <input
            id="report-technique"
            placeholder="T1059"
            value={inputs.technique ?? ''}
            onChange={(event) => set('technique')(event.target.value)}
            {...described('technique')}
          />
          <FieldError id="technique-error" message={fieldError('technique')} />
        </div>
      );
    default:
      return null;
  }
}
