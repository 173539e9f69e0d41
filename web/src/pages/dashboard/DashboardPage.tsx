import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { useUrlState } from '../../url-state.ts';
import { ExecutiveSummary } from './ExecutiveSummary.tsx';
import { KpiCards } from './KpiCards.tsx';
import { OperationalTrendCharts } from './OperationalTrendCharts.tsx';
import { PostureChart } from './PostureChart.tsx';
import { TacticCoverageChart } from './TacticCoverageChart.tsx';

const DashboardDocument = graphql(`
  query Dashboard($period: String) {
    ...KpiFigures
    coverageByTactic { ...TacticCoverageBar }
    operationalTrend(period: $period) { weeks { ...OperationalWeekPoint } }
    postureHistory(period: $period) { ...PostureChartPoint }
    executiveSummary { ...ExecutiveSummaryText }
  }
`);

const PERIODS = [
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
  { value: '1y', label: 'Last year' },
] as const;

const DEFAULT_PERIOD = '90d';

/** The executive dashboard in one request: headline figures, coverage by tactic, trends and the written summary. */
export default function DashboardPage() {
  const [search, update] = useUrlState();
  const asked = search.get('period');
  const period = PERIODS.some((choice) => choice.value === asked) ? (asked as string) : DEFAULT_PERIOD;
  const [{ data, error, fetching }] = useQuery({ query: DashboardDocument, variables: { period } });

  return (
    <section aria-labelledby="dashboard-title" className="dashboard">
      <div className="page-head">
        <h1 id="dashboard-title">Dashboard</h1>
        <div className="filters">
          <label htmlFor="period">Trends over</label>
          <select
            id="period"
            value={period}
            onChange={(event) => update({ period: event.target.value === DEFAULT_PERIOD ? undefined : event.target.value })}
          >
            {PERIODS.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <p role="alert">The dashboard could not be loaded: {error.message}</p>}
      {fetching && !data && <p className="loading">Loading the dashboard…</p>}
      {data && (
        <>
          <h2 className="visually-hidden">Key figures</h2>
          <KpiCards figures={data} />
          <div className="dashboard-grid">
            <TacticCoverageChart tactics={data.coverageByTactic} />
            <PostureChart points={data.postureHistory} />
            <OperationalTrendCharts weeks={data.operationalTrend.weeks} />
          </div>
          <ExecutiveSummary summary={data.executiveSummary} />
        </>
      )}
    </section>
  );
}
