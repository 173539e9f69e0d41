import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { inRoleSet, RequireRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { Markdown } from '../../markdown/Markdown.tsx';
import { useSession } from '../../session.tsx';
import { LessonForm } from './LessonForm.tsx';
import { dateOf, severityLabel } from './labels.ts';

const LessonDocument = graphql(`
  query LessonDetail($id: UUID!) {
    lesson(id: $id) {
      id title severity ttpId whatHappened rootCause recommendations createdAt updatedAt
      technique { name }
      createdBy { username }
      test { id name }
    }
  }
`);

/** A lesson learned, its text as markdown, and the edit form for the roles that may write. */
export default function LessonPage() {
  const { id = '' } = useParams();
  const { viewer } = useSession();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: LessonDocument, variables: { id } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (!data)
    return (
      <p role="alert" className="error">
        The lesson could not be loaded: {error?.graphQLErrors[0]?.message ?? error?.message}
      </p>
    );
  const { lesson } = data;
  return (
    <article aria-labelledby="lesson-title-heading" className="knowledge-page">
      <p>
        <Link to="/knowledge">Back to the knowledge base</Link>
      </p>
      <h1 id="lesson-title-heading" className="text">
        {lesson.title}
      </h1>
      <dl className="facts">
        <dt>Severity</dt>
        <dd>{severityLabel(lesson.severity)}</dd>
        <dt>Technique</dt>
        <dd>
          <Link to={`/techniques/${encodeURIComponent(lesson.ttpId)}`}>
            {lesson.ttpId} {lesson.technique.name}
          </Link>
        </dd>
        {lesson.test && (
          <>
            <dt>From the test</dt>
            <dd>
              <Link to={`/tests/${encodeURIComponent(lesson.test.id)}`}>{lesson.test.name}</Link>
            </dd>
          </>
        )}
        <dt>Recorded</dt>
        <dd>
          {dateOf(lesson.createdAt)}
          {lesson.createdBy ? ` by ${lesson.createdBy.username}` : ''}
        </dd>
      </dl>
      {saved && <p role="status">Lesson saved.</p>}
      {inRoleSet(viewer, 'leads') && !editing && (
        <button type="button" className="button" onClick={() => setEditing(true)}>
          Edit lesson
        </button>
      )}
      {editing ? (
        <LessonForm
          lesson={lesson}
          onSaved={() => {
            setEditing(false);
            setSaved(true);
            refresh();
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <h2>What happened</h2>
          <Markdown source={lesson.whatHappened} />
          <h2>Root cause</h2>
          <Markdown source={lesson.rootCause} />
          <h2>Recommendations</h2>
          {lesson.recommendations ? <Markdown source={lesson.recommendations} /> : <p>None recorded.</p>}
        </>
      )}
    </article>
  );
}

/** A new lesson, for the roles that may write; the technique may come from the URL (?technique=T1059). */
export function NewLessonPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const technique = search.get('technique') ?? '';
  return (
    <RequireRoleSet set="leads">
      <article className="knowledge-page">
        <p>
          <Link to="/knowledge">Back to the knowledge base</Link>
        </p>
        <LessonForm
          heading="h1"
          lesson={{ ttpId: technique, title: '', severity: 'medium', whatHappened: '', rootCause: '', recommendations: '' }}
          onSaved={(id) => navigate(`/knowledge/lessons/${encodeURIComponent(id)}`)}
          onCancel={() => navigate('/knowledge')}
        />
      </article>
    </RequireRoleSet>
  );
}
