import { type FragmentType, graphql, useFragment } from '../../gql';

export const ExecutiveSummaryTextFragment = graphql(`
  fragment ExecutiveSummaryText on ExecutiveSummary {
    generatedAt
    summary
  }
`);

/** The narrative summary the API writes from the current figures. */
export function ExecutiveSummary(props: { summary: FragmentType<typeof ExecutiveSummaryTextFragment> }) {
  const { summary, generatedAt } = useFragment(ExecutiveSummaryTextFragment, props.summary);
  return (
    <section aria-labelledby="summary-title" className="summary">
      <h2 id="summary-title">Summary</h2>
      <p className="text">{summary}</p>
      <p className="hint">
        Written from the figures of <time dateTime={generatedAt}>{new Date(generatedAt).toLocaleString('en-GB')}</time>.
      </p>
    </section>
  );
}
