import { type FragmentType, graphql, useFragment } from '../../gql';
import { BOARD_STATES } from '../board/states.ts';
import { ProgressBar } from './ProgressBar.tsx';

export const CampaignProgressFragment = graphql(`
  fragment CampaignProgressPart on CampaignProgress {
    validated
    total
    percentage
    byState { draft redExecuting blueEvaluating inReview validated rejected }
  }
`);

const KEY = {
  draft: 'draft',
  red_executing: 'redExecuting',
  blue_evaluating: 'blueEvaluating',
  in_review: 'inReview',
  validated: 'validated',
  rejected: 'rejected',
} as const;

/** Validated out of all tests, and how many tests are in each state. */
export function CampaignProgress(props: { progress: FragmentType<typeof CampaignProgressFragment> }) {
  const progress = useFragment(CampaignProgressFragment, props.progress);
  return (
    <section aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <p data-testid="campaign-progress">
        <ProgressBar {...progress} label="Campaign progress" />
      </p>
      <dl className="facts state-counts">
        {BOARD_STATES.map(({ state, label }) => (
          <div key={state}>
            <dt>{label}</dt>
            <dd>{progress.byState[KEY[state]]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
