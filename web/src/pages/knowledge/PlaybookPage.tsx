import { useCallback, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { Markdown } from '../../markdown/Markdown.tsx';
import { useSession } from '../../session.tsx';
import { problemOf } from '../../components/problems.ts';
import { PlaybookForm } from './PlaybookForm.tsx';
import { Pager } from '../../components/Pager.tsx';
import { dateOf, typeLabel } from './labels.ts';

const VERSION_PAGE = 10;

const PlaybookDocument = graphql(`
  query PlaybookDetail($id: UUID!, $limit: Int!, $offset: Int) {
    playbook(id: $id) {
      id title type ttpId content tags version restoredFrom updatedAt
      technique { name }
      updatedBy { username }
    }
    playbookVersions(id: $id, limit: $limit, offset: $offset) {
      total
      items { id version title type tags content authoredAt replacedAt restoredFrom author { username } }
    }
  }
`);

const RestoreDocument = graphql(`
  mutation RestorePlaybookVersion($id: UUID!, $version: Int!) {
    restorePlaybookVersion(id: $id, version: $version) { id version content }
  }
`);

/** A playbook: its content, the edit form for the roles that may write, and its earlier versions with restore. */
export default function PlaybookPage() {
  const { id = '' } = useParams();
  const { viewer } = useSession();
  const [offset, setOffset] = useState(0);
  const [{ data, error, fetching }, reexecute] = useQuery({ query: PlaybookDocument, variables: { id, limit: VERSION_PAGE, offset } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [editing, setEditing] = useState(false);
  const [viewing, setViewing] = useState<number>();
  const [restoring, restore] = useMutation(RestoreDocument);
  const [message, setMessage] = useState<{ text: string; error: boolean }>();
  const canWrite = inRoleSet(viewer, 'leads');
  if (fetching && !data) return <p className="loading">Loading…</p>;
  if (!data)
    return (
      <p role="alert" className="error">
        The playbook could not be loaded: {error?.graphQLErrors[0]?.message ?? error?.message}
      </p>
    );
  const { playbook, playbookVersions } = data;
  const onRestore = async (version: number) => {
    const result = await restore({ id: playbook.id, version });
    setMessage(
      result.error
        ? { text: `Version ${version} could not be restored: ${problemOf(result.error)?.message}`, error: true }
        : { text: `Version ${version} restored as version ${result.data?.restorePlaybookVersion.version}.`, error: false },
    );
    setViewing(undefined);
    refresh();
  };
  return (
    <article aria-labelledby="playbook-title" className="knowledge-page">
      <p>
        <Link to="/knowledge">Back to the knowledge base</Link>
      </p>
      <h1 id="playbook-title" className="text">
        {playbook.title}
      </h1>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{typeLabel(playbook.type)}</dd>
        <dt>Technique</dt>
        <dd>
          <Link to={`/techniques/${encodeURIComponent(playbook.ttpId)}`}>
            {playbook.ttpId} {playbook.technique.name}
          </Link>
        </dd>
        <dt>Version</dt>
        <dd data-testid="playbook-version">
          {playbook.version}
          {playbook.restoredFrom ? ` (restored from version ${playbook.restoredFrom})` : ''}
        </dd>
        <dt>Changed</dt>
        <dd>
          {dateOf(playbook.updatedAt)}
          {playbook.updatedBy ? ` by ${playbook.updatedBy.username}` : ''}
        </dd>
        <dt>Tags</dt>
        <dd className="text">{playbook.tags.join(', ') || 'None'}</dd>
      </dl>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : undefined}>
          {message.text}
        </p>
      )}
      {canWrite && !editing && (
        <button type="button" className="button" onClick={() => setEditing(true)}>
          Edit playbook
        </button>
      )}
      {editing ? (
        <PlaybookForm
          playbook={playbook}
          onSaved={() => {
            setEditing(false);
            setMessage({ text: 'Playbook saved.', error: false });
            refresh();
          }}
          onCancel={() => {
            setEditing(false);
            refresh();
          }}
        />
      ) : (
        <section aria-labelledby="content-title">
          <h2 id="content-title">Content</h2>
          <Markdown source={playbook.content} className="playbook-content" />
        </section>
      )}
      <section aria-labelledby="versions-title">
        <h2 id="versions-title">Earlier versions</h2>
        {playbookVersions.total === 0 ? (
          <p>No earlier version.</p>
        ) : (
          <ol className="versions">
            {playbookVersions.items.map((version) => (
              <li key={version.id}>
                <p>
                  <strong>Version {version.version}</strong> · <span className="text">{version.title}</span> ·{' '}
                  {version.author?.username ?? 'unknown author'} · {dateOf(version.authoredAt)}
                  {version.restoredFrom ? ` · restored from version ${version.restoredFrom}` : ''}
                </p>
                <div className="card-actions">
                  <button
                    type="button"
                    className="button small"
                    aria-expanded={viewing === version.version}
                    onClick={() => setViewing(viewing === version.version ? undefined : version.version)}
                  >
                    {viewing === version.version ? `Hide version ${version.version}` : `View version ${version.version}`}
                  </button>
                  {canWrite && (
                    <button type="button" className="button small" disabled={restoring.fetching} onClick={() => onRestore(version.version)}>
                      Restore version {version.version}
                    </button>
                  )}
                </div>
                {viewing === version.version && (
                  <section aria-label={`Content of version ${version.version}`} className="version-content">
                    <p>
                      {typeLabel(version.type)} · tags: <span className="text">{version.tags.join(', ') || 'none'}</span>
                    </p>
                    <Markdown source={version.content} />
                  </section>
                )}
              </li>
            ))}
          </ol>
        )}
        <Pager
          label="Version"
          offset={offset}
          limit={VERSION_PAGE}
          count={playbookVersions.items.length}
          total={playbookVersions.total}
          onOffset={setOffset}
        />
      </section>
    </article>
  );
}
