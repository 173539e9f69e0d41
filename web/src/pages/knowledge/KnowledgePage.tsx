import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import type { LessonSeverity, PlaybookType } from '../../gql/graphql.ts';
import { useSession } from '../../session.tsx';
import { useUrlState } from '../../url-state.ts';
import { Pager } from './Pager.tsx';
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
  const playbookOffset = Math.max(0, Number(search.get('playbooks')) || 0);
  const lessonOffset = Math.max(0, Number(search.get('lessons')) || 0);
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
        <section aria-labelledby="playbooks-title">
          <div className="page-head">
            <h2 id="playbooks-title">Playbooks</h2>
            <label className="inline-field">
              Type
              <select value={type ?? ''} onChange={(e) => update({ type: e.target.value, playbooks: undefined })}>
                <option value="">Any type</option>
                {PLAYBOOK_TYPES.map((entry) => (
                  <option key={entry.value} value={entry.value}>
                    {entry.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {data && data.playbooks.total === 0 && <p>No playbook matches.</p>}
          {data && data.playbooks.items.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th scope="col">Playbook</th>
                  <th scope="col">Type</th>
                  <th scope="col">Technique</th>
                  <th scope="col">Version</th>
                  <th scope="col">Changed</th>
                </tr>
              </thead>
              <tbody>
                {data.playbooks.items.map((playbook) => (
                  <tr key={playbook.id}>
                    <td className="text">
                      <Link to={`/knowledge/playbooks/${encodeURIComponent(playbook.id)}`}>{playbook.title}</Link>
                    </td>
                    <td>{typeLabel(playbook.type)}</td>
                    <td>
                      <Link to={`/techniques/${encodeURIComponent(playbook.ttpId)}`}>{playbook.ttpId}</Link>
                    </td>
                    <td>{playbook.version}</td>
                    <td>{dateOf(playbook.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data && (
            <Pager
              label="Playbook"
              offset={playbookOffset}
              size={PAGE_SIZE}
              count={data.playbooks.items.length}
              total={data.playbooks.total}
              onOffset={(offset) => update({ playbooks: offset ? String(offset) : undefined })}
            />
          )}
        </section>
        <section aria-labelledby="lessons-title">
          <div className="page-head">
            <h2 id="lessons-title">Lessons learned</h2>
            <label className="inline-field">
              Severity
              <select value={severity ?? ''} onChange={(e) => update({ severity: e.target.value, lessons: undefined })}>
                <option value="">Any severity</option>
                {SEVERITIES.map((entry) => (
                  <option key={entry.value} value={entry.value}>
                    {entry.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {data && data.lessons.total === 0 && <p>No lesson matches.</p>}
          {data && data.lessons.items.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th scope="col">Lesson</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Technique</th>
                  <th scope="col">Recorded</th>
                </tr>
              </thead>
              <tbody>
                {data.lessons.items.map((lesson) => (
                  <tr key={lesson.id}>
                    <td className="text">
                      <Link to={`/knowledge/lessons/${encodeURIComponent(lesson.id)}`}>{lesson.title}</Link>
                    </td>
                    <td>{severityLabel(lesson.severity)}</td>
                    <td>
                      <Link to={`/techniques/${encodeURIComponent(lesson.ttpId)}`}>{lesson.ttpId}</Link>
                    </td>
                    <td>{dateOf(lesson.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data && (
            <Pager
              label="Lesson"
              offset={lessonOffset}
              size={PAGE_SIZE}
              count={data.lessons.items.length}
              total={data.lessons.total}
              onOffset={(offset) => update({ lessons: offset ? String(offset) : undefined })}
            />
          )}
        </section>
      </div>
    </section>
  );
}
