import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { Markdown } from '../../markdown/Markdown.tsx';
import { useSession } from '../../session.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { stateLabel } from '../board/states.ts';
import { statusOf } from '../matrix/coverage.ts';
import { ComplianceSection } from './ComplianceSection.tsx';
import { CountermeasuresSection, RevalidationSection } from './DefenceSection.tsx';
import { DetectionSection } from './DetectionSection.tsx';
import { IntelItems } from './IntelItems.tsx';
import { KnowledgeSection } from './KnowledgeSection.tsx';
import { Mitigations } from './Mitigations.tsx';
import { Pager } from '../../components/Pager.tsx';
import { RiskSection } from './RiskSection.tsx';

const PAGE_SIZE = 20;

const TechniqueDocument = graphql(`
  query TechniqueDetail(
    $ttpId: String!, $pageSize: Int!, $testsOffset: Int, $rulesOffset: Int, $countermeasuresOffset: Int, $controlsOffset: Int,
    $showQueue: Boolean!
  ) {
    technique(ttpId: $ttpId) {
      ttpId
      name
      description
      statusGlobal
      score
      platforms
      tactics
      parent { ttpId name }
      tests(limit: $pageSize, offset: $testsOffset) { id name state platform }
      ...TechniqueKnowledge
      ...TechniqueCountermeasures
      ...TechniqueMitigations
      ...TechniqueCompliance
    }
    revalidationQueue(technique: $ttpId, limit: $pageSize) @include(if: $showQueue) { items { ...TechniqueRevalidation } }
    ...TechniqueRisk
    ...TechniqueDetection
  }
`);

/**
 * A technique in one request: description, coverage, risk and score, tests, detection, mitigations, countermeasures,
 * compliance controls, knowledge.
 */
export default function TechniquePage() {
  const { ttpId = '' } = useParams();
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const showQueue = inRoleSet(viewer, 'blueLead');
  const offsets = {
    testsOffset: offsetIn(search, 'tests'),
    rulesOffset: offsetIn(search, 'rules'),
    countermeasuresOffset: offsetIn(search, 'countermeasures'),
    controlsOffset: offsetIn(search, 'controls'),
  };
  const [{ data, error, fetching }] = useQuery({
    query: TechniqueDocument,
    variables: { ttpId, pageSize: PAGE_SIZE, showQueue, ...offsets },
  });
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (!data)
    return (
      <p role="alert">
        The technique {ttpId} could not be loaded: {error?.graphQLErrors[0]?.message ?? error?.message}
      </p>
    );
  const { technique } = data;
  const status = statusOf(technique.statusGlobal);
  const page = (key: string) => (offset: number) => update({ [key]: offsetValue(offset) });
  return (
    <article aria-labelledby="technique-title" className="technique-page">
      <p>
        <Link to="/matrix">Back to the matrix</Link>
      </p>
      <h1 id="technique-title">
        {technique.ttpId} {technique.name}
      </h1>
      {inRoleSet(viewer, 'leads') && (
        <p>
          <Link className="button primary" to={`/tests/new?technique=${encodeURIComponent(technique.ttpId)}`}>
            New test of this technique
          </Link>
        </p>
      )}
      {technique.parent && (
        <p>
          Sub-technique of{' '}
          <Link to={`/techniques/${encodeURIComponent(technique.parent.ttpId)}`}>
            {technique.parent.ttpId} {technique.parent.name}
          </Link>
        </p>
      )}
      <dl className="facts">
        <dt>Coverage</dt>
        <dd>
          <span className={`swatch status-${technique.statusGlobal}`} aria-hidden="true" /> {status.label}
        </dd>
        <dt>Score</dt>
        <dd>{technique.score === null || technique.score === undefined ? 'Not scored' : `${Math.round(technique.score)} / 100`}</dd>
        <dt>Platforms</dt>
        <dd>{technique.platforms.join(', ') || 'None listed'}</dd>
        <dt>Tactics</dt>
        <dd>{technique.tactics.join(', ')}</dd>
      </dl>
      <div className="technique-sections">
        <section aria-labelledby="description-title">
          <h2 id="description-title">Description</h2>
          <Markdown source={technique.description} className="description-markdown" />
        </section>
        <RiskSection data={data} />
        {data.revalidationQueue && <RevalidationSection entries={data.revalidationQueue.items} />}
        <section aria-labelledby="tests-title">
          <h2 id="tests-title">Tests</h2>
          {technique.tests.length === 0 ? (
            <p>No tests of this technique yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Test</th>
                  <th scope="col">State</th>
                  <th scope="col">Platform</th>
                </tr>
              </thead>
              <tbody>
                {technique.tests.map((test) => (
                  <tr key={test.id}>
                    <td>
                      <Link to={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link>
                    </td>
                    <td>{stateLabel(test.state)}</td>
                    <td>{test.platform ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pager
            label="Test"
            offset={offsets.testsOffset}
            limit={PAGE_SIZE}
            count={technique.tests.length}
            more={technique.tests.length === PAGE_SIZE}
            onOffset={page('tests')}
          />
        </section>
        <DetectionSection data={data} pageSize={PAGE_SIZE} rulesOffset={offsets.rulesOffset} onRulesOffset={page('rules')} />
        <Mitigations technique={technique} />
        <CountermeasuresSection
          technique={technique}
          pageSize={PAGE_SIZE}
          offset={offsets.countermeasuresOffset}
          onOffset={page('countermeasures')}
        />
        <ComplianceSection technique={technique} pageSize={PAGE_SIZE} offset={offsets.controlsOffset} onOffset={page('controls')} />
        <KnowledgeSection technique={technique} canWrite={inRoleSet(viewer, 'leads')} />
        <IntelItems ttpId={technique.ttpId} />
      </div>
    </article>
  );
}
