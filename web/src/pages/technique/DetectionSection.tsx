import { Link } from 'react-router';
import { Pager } from '../../components/Pager.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';

export const TechniqueDetectionFragment = graphql(`
  fragment TechniqueDetection on Query {
    technique(ttpId: $ttpId) {
      detectionRules(limit: $pageSize, offset: $rulesOffset) {
        id title severity source status isActive
        evaluations { id triggered evaluatedAt test { id name } }
      }
    }
    detectionValidations(technique: $ttpId, limit: $pageSize) {
      items { id status result source validatedAt validUntil invalidatedReason testId }
    }
    detectionAssets(technique: $ttpId, limit: $pageSize) {
      items { id name kind status platform owner { username } }
    }
    detectionLifecycleDashboard(technique: $ttpId, limit: 1) {
      techniques {
        confidence activeAssets assetTerm freshValidations validationTerm changesSinceValidation changeFactor lastValidatedAt
      }
    }
  }
`);

const LATEST_EVALUATIONS = 3;
const day = (iso: string) => new Date(iso).toLocaleDateString();

/** Detection rules with their latest evaluations, the validations, the detection assets and the confidence terms. */
export function DetectionSection(props: {
  data: FragmentType<typeof TechniqueDetectionFragment>;
  pageSize: number;
  rulesOffset: number;
  onRulesOffset(offset: number): void;
}) {
  const data = useFragment(TechniqueDetectionFragment, props.data);
  const rules = data.technique.detectionRules;
  const confidence = data.detectionLifecycleDashboard.techniques[0];
  return (
    <>
      <section aria-labelledby="rules-title">
        <h2 id="rules-title">Detection rules</h2>
        {rules.length === 0 ? (
          <p>No active detection rule names this technique.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col">Source</th>
                <th scope="col">Evaluations</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((rule) => {
                const triggered = rule.evaluations.filter((evaluation) => evaluation.triggered).length;
                return (
                  <tr key={rule.id}>
                    <td className="text">{rule.title}</td>
                    <td>{rule.severity}</td>
                    <td>
                      {rule.source}
                      {rule.status ? ` (${rule.status})` : ''}
                    </td>
                    <td>
                      {rule.evaluations.length === 0 ? (
                        'Not evaluated'
                      ) : (
                        <>
                          Triggered {triggered} of {rule.evaluations.length}
                          <ul className="compact">
                            {rule.evaluations.slice(0, LATEST_EVALUATIONS).map((evaluation) => (
                              <li key={evaluation.id}>
                                {evaluation.triggered ? 'Triggered' : 'Missed'} on{' '}
                                <Link to={`/tests/${encodeURIComponent(evaluation.test.id)}`}>{evaluation.test.name}</Link>,{' '}
                                {day(evaluation.evaluatedAt)}
                              </li>
                            ))}
                          </ul>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        <Pager
          label="Detection rule"
          offset={props.rulesOffset}
          limit={props.pageSize}
          count={rules.length}
          more={rules.length === props.pageSize}
          onOffset={props.onRulesOffset}
        />
      </section>
      <section aria-labelledby="confidence-title">
        <h2 id="confidence-title">Detection confidence</h2>
        {confidence ? (
          <dl className="facts">
            <dt>Confidence</dt>
            <dd data-testid="detection-confidence">{confidence.confidence} / 100</dd>
            <dt>Assets term</dt>
            <dd>
              {confidence.assetTerm} ({confidence.activeAssets} active assets; min(assets, 2) / 2)
            </dd>
            <dt>Validation term</dt>
            <dd>
              {confidence.validationTerm} ({confidence.freshValidations} fresh validations
              {confidence.lastValidatedAt ? `, last ${day(confidence.lastValidatedAt)}` : ''})
            </dd>
            <dt>Change factor</dt>
            <dd>
              {confidence.changeFactor} ({confidence.changesSinceValidation} infrastructure changes since the latest validation)
            </dd>
          </dl>
        ) : (
          <p>No detection asset or validation yet, so no confidence.</p>
        )}
        <h3>Detection assets</h3>
        {data.detectionAssets.items.length === 0 ? (
          <p>No detection asset covers this technique.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Platform</th>
                <th scope="col">Owner</th>
              </tr>
            </thead>
            <tbody>
              {data.detectionAssets.items.map((asset) => (
                <tr key={asset.id}>
                  <td className="text">{asset.name}</td>
                  <td>{asset.kind.replaceAll('_', ' ')}</td>
                  <td>{asset.status}</td>
                  <td>{asset.platform ?? '—'}</td>
                  <td>{asset.owner?.username ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <h3>Validations</h3>
        {data.detectionValidations.items.length === 0 ? (
          <p>No validation recorded.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Validated</th>
                <th scope="col">Result</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
                <th scope="col">Valid until</th>
              </tr>
            </thead>
            <tbody>
              {data.detectionValidations.items.map((validation) => (
                <tr key={validation.id}>
                  <td>{day(validation.validatedAt)}</td>
                  <td>{validation.result.replaceAll('_', ' ')}</td>
                  <td className="text">
                    {validation.status}
                    {validation.invalidatedReason ? `: ${validation.invalidatedReason}` : ''}
                  </td>
                  <td>
                    {validation.testId ? <Link to={`/tests/${encodeURIComponent(validation.testId)}`}>test</Link> : validation.source}
                  </td>
                  <td>{day(validation.validUntil)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
