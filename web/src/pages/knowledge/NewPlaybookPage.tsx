import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useClient, useMutation } from 'urql';
import { RequireRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import type { PlaybookType } from '../../gql/graphql.ts';
import { Markdown } from '../../markdown/Markdown.tsx';
import { Field } from '../test/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../test/problems.ts';
import { PLAYBOOK_TYPES } from './labels.ts';

const PlaybookTechniqueDocument = graphql(`
  query PlaybookTechnique($ttpId: String!) {
    technique(ttpId: $ttpId) { id }
  }
`);

const CreatePlaybookDocument = graphql(`
  mutation CreatePlaybook($input: CreatePlaybookInput!) {
    createPlaybook(input: $input) { id }
  }
`);

const FIELDS = ['techniqueId', 'title', 'type', 'tags', 'content'];

/** Writes a new playbook (the technique named by its ATT&CK id) with a preview of its markdown; opens it once made. */
export default function NewPlaybookPage() {
  return (
    <RequireRoleSet set="leads">
      <NewPlaybookForm />
    </RequireRoleSet>
  );
}

function NewPlaybookForm() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [ttpId, setTtpId] = useState(search.get('technique') ?? '');
  const [title, setTitle] = useState('');
  const [type, setType] = useState<PlaybookType>('execution');
  const [tags, setTags] = useState('');
  const [content, setContent] = useState('');
  const [problem, setProblem] = useState<Problem>();
  const [looking, setLooking] = useState(false);
  const client = useClient();
  const [creating, create] = useMutation(CreatePlaybookDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setLooking(true);
    const found = await client.query(PlaybookTechniqueDocument, { ttpId: ttpId.trim() }, { requestPolicy: 'network-only' }).toPromise();
    setLooking(false);
    if (!found.data) {
      setProblem({ message: `No technique ${ttpId.trim() || '(empty)'}: enter an ATT&CK id such as T1059.001`, field: 'techniqueId' });
      return;
    }
    const input = {
      techniqueId: found.data.technique.id,
      title: title.trim(),
      type,
      content,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    };
    const result = await create({ input });
    setProblem(problemOf(result.error));
    if (result.data) navigate(`/knowledge/playbooks/${encodeURIComponent(result.data.createPlaybook.id)}`);
  };
  return (
    <article className="knowledge-page">
      <p>
        <Link to="/knowledge">Back to the knowledge base</Link>
      </p>
      <form aria-labelledby="new-playbook-title" onSubmit={submit} className="knowledge-form">
        <h1 id="new-playbook-title">New playbook</h1>
        <fieldset disabled={looking || creating.fetching}>
          <legend className="visually-hidden">Playbook fields</legend>
          <Field id="new-playbook-technique" label="Technique (ATT&CK id)" error={fieldProblem(problem, 'techniqueId')}>
            {(describedBy) => (
              <input
                id="new-playbook-technique"
                required
                value={ttpId}
                aria-describedby={describedBy}
                onChange={(e) => setTtpId(e.target.value)}
              />
            )}
          </Field>
          <Field id="new-playbook-type" label="Type" error={fieldProblem(problem, 'type')}>
            {(describedBy) => (
              <select
                id="new-playbook-type"
                value={type}
                aria-describedby={describedBy}
                onChange={(e) => setType(e.target.value as PlaybookType)}
              >
                {PLAYBOOK_TYPES.map((entry) => (
                  <option key={entry.value} value={entry.value}>
                    {entry.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id="new-playbook-title-input" label="Title" error={fieldProblem(problem, 'title')}>
            {(describedBy) => (
              <input
                id="new-playbook-title-input"
                required
                value={title}
                aria-describedby={describedBy}
                onChange={(e) => setTitle(e.target.value)}
              />
            )}
          </Field>
          <Field id="new-playbook-tags" label="Tags (comma separated)" error={fieldProblem(problem, 'tags')}>
            {(describedBy) => (
              <input id="new-playbook-tags" value={tags} aria-describedby={describedBy} onChange={(e) => setTags(e.target.value)} />
            )}
          </Field>
          <Field id="new-playbook-content" label="Content (markdown)" error={fieldProblem(problem, 'content')}>
            {(describedBy) => (
              <textarea
                id="new-playbook-content"
                rows={12}
                value={content}
                aria-describedby={describedBy}
                onChange={(e) => setContent(e.target.value)}
              />
            )}
          </Field>
          <section aria-labelledby="new-playbook-preview" className="markdown-preview">
            <h2 id="new-playbook-preview">Preview</h2>
            {content.trim() ? <Markdown source={content} /> : <p className="hint">The content, as the playbook will show it.</p>}
          </section>
          <div className="card-actions">
            <button type="submit" className="button primary">
              Create playbook
            </button>
            <button type="button" className="button" onClick={() => navigate('/knowledge')}>
              Cancel
            </button>
          </div>
        </fieldset>
        {problem && !FIELDS.includes(problem.field ?? '') && (
          <p role="alert" className="error">
            {problem.message}
          </p>
        )}
      </form>
    </article>
  );
}
