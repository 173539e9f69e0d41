import { type FragmentType, graphql, useFragment } from '../../gql';

export const ExecutionSummaryFragment = graphql(`
  fragment ExecutionSummary on AttackPathExecution {
    summary {
      totalSteps timeToDetectSeconds
      counts { detected blocked notDetected succeeded skipped unrecorded }
      firstDetectedStep { position ttpId techniqueName }
      firstBlockedStep { position ttpId techniqueName }
      unnoticedSteps { id position ttpId techniqueName }
    }
  }
`);

const duration = (seconds: number) =>
  seconds < 60 ? `${Math.round(seconds)} s` : seconds < 3600 ? `${Math.round(seconds / 60)} min` : `${(seconds / 3600).toFixed(1)} h`;

const stepName = (step: { position: number; ttpId: string; techniqueName: string } | null | undefined) =>
  step ? `step ${step.position}, ${step.ttpId} ${step.techniqueName}` : 'none';

/** What a completed execution found (nothing before completion). */
export function ExecutionSummary(props: { execution: FragmentType<typeof ExecutionSummaryFragment> }) {
  const { summary } = useFragment(ExecutionSummaryFragment, props.execution);
  if (!summary) return null;
  const { counts } = summary;
  return (
    <section aria-labelledby="summary-title">
      <h3 id="summary-title">Summary</h3>
      <dl className="facts">
        <dt>Steps</dt>
        <dd>
          {summary.totalSteps}: {counts.detected} detected, {counts.blocked} blocked, {counts.notDetected} not detected, {counts.succeeded}{' '}
          succeeded unnoticed, {counts.skipped} skipped, {counts.unrecorded} not recorded
        </dd>
        <dt>First detection</dt>
        <dd className="text">{stepName(summary.firstDetectedStep)}</dd>
        <dt>First block</dt>
        <dd className="text">{stepName(summary.firstBlockedStep)}</dd>
        <dt>Time to detect</dt>
        <dd>
          {summary.timeToDetectSeconds === null || summary.timeToDetectSeconds === undefined
            ? 'No detection'
            : duration(summary.timeToDetectSeconds)}
        </dd>
        <dt>Unnoticed steps</dt>
        <dd className="text">{summary.unnoticedSteps.length ? summary.unnoticedSteps.map(stepName).join('; ') : 'none'}</dd>
      </dl>
    </section>
  );
}
