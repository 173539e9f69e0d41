import { Link } from 'react-router';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { severityLabel, typeLabel } from '../knowledge/labels.ts';

export const TechniqueKnowledgeFragment = graphql(`
  fragment TechniqueKnowledge on Technique {
    ttpId
    playbooks(limit: $pageSize) { id title type version }
    lessons(limit: $pageSize) { id title severity createdAt }
  }
`);

/** The technique's playbooks and lessons learned (the first page of each; the knowledge base has the rest). */
export function KnowledgeSection(props: { technique: FragmentType<typeof TechniqueKnowledgeFragment>; canWrite: boolean }) {
  const technique = useFragment(TechniqueKnowledgeFragment, props.technique);
  const more = `/knowledge?technique=${encodeURIComponent(technique.ttpId)}`;
  return (
    <>
      <section aria-labelledby="playbooks-title">
        <h2 id="playbooks-title">Playbooks</h2>
        {technique.playbooks.length === 0 ? (
          <p>No playbook for this technique.</p>
        ) : (
          <ul>
            {technique.playbooks.map((playbook) => (
              <li key={playbook.id}>
                <Link to={`/knowledge/playbooks/${encodeURIComponent(playbook.id)}`}>{playbook.title}</Link> · {typeLabel(playbook.type)} ·
                version {playbook.version}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="lessons-title">
        <h2 id="lessons-title">Lessons learned</h2>
        {technique.lessons.length === 0 ? (
          <p>No lesson recorded for this technique.</p>
        ) : (
          <ul>
            {technique.lessons.map((lesson) => (
              <li key={lesson.id}>
                <Link to={`/knowledge/lessons/${encodeURIComponent(lesson.id)}`}>{lesson.title}</Link> · {severityLabel(lesson.severity)} ·{' '}
                {new Date(lesson.createdAt).toLocaleDateString()}
              </li>
            ))}
          </ul>
        )}
        <p>
          <Link to={more}>All playbooks and lessons of {technique.ttpId}</Link>
          {props.canWrite && (
            <>
              {' · '}
              <Link to={`/knowledge/lessons/new?technique=${encodeURIComponent(technique.ttpId)}`}>Record a lesson</Link>
              {' · '}
              <Link to={`/knowledge/playbooks/new?technique=${encodeURIComponent(technique.ttpId)}`}>Write a playbook</Link>
            </>
          )}
        </p>
      </section>
    </>
  );
}
