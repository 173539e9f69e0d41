import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import type { LessonSeverity, PlaybookType } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { KnowledgeList } from './KnowledgeList.tsx';
import { dateOf, PLAYBOOK_TYPES, SEVERITIES, severityLabel, typeLabel } from './labels.ts';

const PAGE_SIZE = 20;

const KnowledgeDocument = graphql(`
  query Knowledge($playbooks: PlaybookFilter, $lessons: LessonFilter, $limit: Int!, $playbookOffset: Int, $lessonOffset: Int) {
    playbooks(filter: $playbooks, limit: $limit, offset: $playbookOffset) {
      total
      items { id title type ttpId version updatedAt tags }
    }
    lessons(filter: $lessons, limit: $limit, offset: $lessonOffset) {
      total
      items { id title severity ttpId createdAt }
    }
  }
`);

/** Playbooks and lessons learned: one search over both, filters and pages in the URL. */
export default function KnowledgePage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const q = search.get('q') ?? '';
  const technique = search.get('technique') ?? '';
  const type = (search.get('type') || undefined) as PlaybookType | undefined;
  const severity = (search.get('severity') || undefined) as LessonSeverity | undefined;
  const playbookOffset = offsetIn(search, 'playbooks');
  const lessonOffset = offsetIn(search, 'lessons');
  const [{ data, error, fetching }] = useQuery({
    query: KnowledgeDocument,
    variables: {
      playbooks: { search: q || undefined, technique: technique || undefined, type },
      lessons: { search: q || undefined, technique: technique || undefined, severity },
      limit: PAGE_SIZE,
      playbookOffset,
      lessonOffset,
    },
  });
  const canWrite = inRoleSet(viewer, 'leads');
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    update({ q: text('q'), technique: text('technique'), playbooks: undefined, lessons: undefined });
  };
  return (
    <section aria-labelledby="knowledge-title" className="knowledge-page">
      <div className="page-head">
        <h1 id="knowledge-title">Knowledge base</h1>
        {canWrite && (
          <div className="row-actions">
            <Link className="button" to="/knowledge/playbooks/new">
              New playbook
            </Link>
            <Link className="button" to="/knowledge/lessons/new">
              New lesson
            </Link>
          </div>
        )}
      </div>
      {/* Keyed by the URL's values, so that the boxes show them after a link or Back changed them. */}
      <search aria-label="Knowledge" key={`${q}\n${technique}`}>
        <form className="filters" onSubmit={apply}>
          <label htmlFor="knowledge-search">Search</label>
          <input id="knowledge-search" name="q" type="search" defaultValue={q} />
          <label htmlFor="knowledge-technique">Technique</label>
          <input id="knowledge-technique" placeholder="T1059.001" name="technique" defaultValue={technique} />
          <button type="submit" className="button">
            Search
          </button>
        </form>
      </search>
      {error && (
        <p role="alert" className="error">
          The knowledge base could not be loaded: {error.graphQLErrors[0]?.message ?? error.message}
        </p>
      )}
      {fetching && !data && <p className="loading">Loading…</p>}
      <div className="knowledge-lists">
        <KnowledgeList
          title="Playbooks"
          titleId="playbooks-title"
          filter={{ label: 'Type', any: 'Any type', value: type, options: PLAYBOOK_TYPES }}
          onFilter={(value) => update({ type: value, playbooks: undefined })}
          page={data?.playbooks}
          none="No playbook matches."
          columns={['Playbook', 'Type', 'Technique', 'Version', 'Changed']}
          cells={(playbook) => (
            <>
              <td className="text">
                <Link to={`/knowledge/playbooks/${encodeURIComponent(playbook.id)}`}>{playbook.title}</Link>
              </td>
              <td>{typeLabel(playbook.type)}</td>
              <td>
                <TechniqueLink ttpId={playbook.ttpId} />
              </td>
              <td>{playbook.version}</td>
              <td>{dateOf(playbook.updatedAt)}</td>
            </>
          )}
          pager={{
            label: 'Playbook',
            offset: playbookOffset,
            limit: PAGE_SIZE,
            onOffset: (offset) => update({ playbooks: offsetValue(offset) }),
          }}
        />
        <KnowledgeList
          title="Lessons learned"
          titleId="lessons-title"
          filter={{ label: 'Severity', any: 'Any severity', value: severity, options: SEVERITIES }}
          onFilter={(value) => update({ severity: value, lessons: undefined })}
          page={data?.lessons}
          none="No lesson matches."
          columns={['Lesson', 'Severity', 'Technique', 'Recorded']}
          cells={(lesson) => (
            <>
              <td className="text">
                <Link to={`/knowledge/lessons/${encodeURIComponent(lesson.id)}`}>{lesson.title}</Link>
              </td>
              <td>{severityLabel(lesson.severity)}</td>
              <td>
                <TechniqueLink ttpId={lesson.ttpId} />
              </td>
              <td>{dateOf(lesson.createdAt)}</td>
            </>
          )}
          pager={{
            label: 'Lesson',
            offset: lessonOffset,
            limit: PAGE_SIZE,
            onOffset: (offset) => update({ lessons: offsetValue(offset) }),
          }}
        />
      </div>
    </section>
  );
}

const TechniqueLink = ({ ttpId }: { ttpId: string }) => <Link to={`/techniques/${encodeURIComponent(ttpId)}`}>{ttpId}</Link>;
