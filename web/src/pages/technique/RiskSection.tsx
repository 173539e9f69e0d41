import { type FragmentType, graphql, useFragment } from '../../gql';
import { statusOf } from '../matrix/coverage.ts';

export const TechniqueRiskFragment = graphql(`
  fragment TechniqueRisk on Query {
    techniqueScore(ttpId: $ttpId) {
      score
      formula
      terms { name description value weight points }
      inputs { validatedTests detectedTests partiallyDetectedTests activeDetectionRules lastValidatedAt }
    }
    technique(ttpId: $ttpId) {
      riskProfile { score level impact likelihood actorCount tacticWeight reason stale status computedAt }
    }
  }
`);

const percent = (value: number) => `${Math.round(value * 100)} %`;

/** The risk of the technique (impact × likelihood) and its score term by term. */
export function RiskSection(props: { data: FragmentType<typeof TechniqueRiskFragment> }) {
  const { techniqueScore: score, technique } = useFragment(TechniqueRiskFragment, props.data);
  const risk = technique.riskProfile;
  return (
    <section aria-labelledby="risk-title">
      <h2 id="risk-title">Risk and score</h2>
      {risk ? (
        <dl className="facts">
          <dt>Risk</dt>
          <dd>
            {Math.round(risk.score)} / 100, {risk.level}
            {risk.stale ? ' (out of date: the coverage changed since it was computed)' : ''}
          </dd>
          <dt>Impact × likelihood</dt>
          <dd>
            {percent(risk.impact)} × {percent(risk.likelihood)} (coverage {statusOf(risk.status).label.toLowerCase()})
          </dd>
          <dt>Threat actors</dt>
          <dd>{risk.actorCount}</dd>
          <dt>Why</dt>
          <dd className="text">{risk.reason}</dd>
          <dt>Computed</dt>
          <dd>{new Date(risk.computedAt).toLocaleString()}</dd>
        </dl>
      ) : (
        <p>No risk computed yet.</p>
      )}
      <table>
        <caption>
          Score {score.score.toFixed(1)} / 100: <span className="text">{score.formula}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Term</th>
            <th scope="col">Value</th>
            <th scope="col">Weight</th>
            <th scope="col">Points</th>
          </tr>
        </thead>
        <tbody>
          {score.terms.map((term) => (
            <tr key={term.name}>
              <th scope="row">
                {term.name.replaceAll('_', ' ')} <span className="hint">{term.description}</span>
              </th>
              <td>{term.value.toFixed(2)}</td>
              <td>{term.weight}</td>
              <td>{term.points.toFixed(2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        {score.inputs.validatedTests} validated tests ({score.inputs.detectedTests} detected, {score.inputs.partiallyDetectedTests}{' '}
        partially), {score.inputs.activeDetectionRules} active detection rules
        {score.inputs.lastValidatedAt ? `, last validated ${new Date(score.inputs.lastValidatedAt).toLocaleDateString()}` : ''}.
      </p>
    </section>
  );
}
