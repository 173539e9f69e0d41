import { type FragmentType, graphql, useFragment } from '../../gql';
import { duration, figure, percent } from './format.ts';

export const KpiFiguresFragment = graphql(`
  fragment KpiFigures on Query {
    dashboardKpis {
      totalTechniques
      coveredPercentage
      coverage { validated partial notCovered }
      tests { total validated inReview rejected }
      campaigns { active total }
    }
    organizationScore { score techniqueCount }
    operationalKpis {
      mttd { meanSeconds count }
      mttr { meanHours count }
      efficacy { rate tests }
    }
  }
`);

function Kpi({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="kpi">
      <dt>{label}</dt>
      <dd>
        <span className="kpi-value">{value}</span>
        <span className="kpi-detail">{detail}</span>
      </dd>
    </div>
  );
}

/** The headline figures: coverage, score, tests, campaigns, and the operational KPIs. */
export function KpiCards(props: { figures: FragmentType<typeof KpiFiguresFragment> }) {
  const { dashboardKpis: kpis, organizationScore: score, operationalKpis: ops } = useFragment(KpiFiguresFragment, props.figures);
  const mttrSeconds = ops.mttr.meanHours == null ? null : ops.mttr.meanHours * 3600;
  return (
    <dl className="kpis">
      <Kpi
        label="Coverage"
        value={percent(kpis.coveredPercentage)}
        detail={`${kpis.coverage.validated} validated, ${kpis.coverage.partial} partial of ${kpis.totalTechniques} techniques`}
      />
      <Kpi label="Organisation score" value={figure(score.score)} detail={`mean of ${score.techniqueCount} techniques`} />
      <Kpi
        label="Tests validated"
        value={`${kpis.tests.validated} of ${kpis.tests.total}`}
        detail={`${kpis.tests.inReview} in review, ${kpis.tests.rejected} rejected`}
      />
      <Kpi label="Active campaigns" value={String(kpis.campaigns.active)} detail={`${kpis.campaigns.total} in all`} />
      <Kpi label="Mean time to detect" value={duration(ops.mttd.meanSeconds)} detail={`over ${ops.mttd.count} detections`} />
      <Kpi label="Mean time to remediate" value={duration(mttrSeconds)} detail={`over ${ops.mttr.count} remediations`} />
      <Kpi label="Detection efficacy" value={percent(ops.efficacy.rate)} detail={`over ${ops.efficacy.tests} tests`} />
    </dl>
  );
}
