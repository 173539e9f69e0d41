import { type FragmentType, graphql, useFragment } from '../../gql';
import { Markdown } from '../../markdown/Markdown.tsx';

export const TechniqueMitigationsFragment = graphql(`
  fragment TechniqueMitigations on Technique {
    mitigations { description mitigation { id externalId name deprecated } }
  }
`);

/** The ATT&CK mitigations (courses of action) of the technique, each with how it applies here. */
export function Mitigations(props: { technique: FragmentType<typeof TechniqueMitigationsFragment> }) {
  const { mitigations } = useFragment(TechniqueMitigationsFragment, props.technique);
  return (
    <section aria-labelledby="mitigations-title">
      <h2 id="mitigations-title">Mitigations</h2>
      {mitigations.length === 0 ? (
        <p>ATT&amp;CK lists no mitigation for this technique.</p>
      ) : (
        <dl className="mitigations">
          {mitigations.map(({ mitigation, description }) => (
            <div key={mitigation.id}>
              <dt className="text">
                {mitigation.externalId && `${mitigation.externalId} `}
                <bdi>{mitigation.name}</bdi>
                {mitigation.deprecated && ' (deprecated in ATT&CK)'}
              </dt>
              <dd>{description ? <Markdown source={description} /> : 'ATT&CK says no more about how it applies here.'}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
