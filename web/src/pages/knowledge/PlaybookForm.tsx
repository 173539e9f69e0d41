import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { PlaybookType } from '../../gql/graphql.ts';
import { Field } from '../test/Field.tsx';
import { fieldProblem, type Problem, problemOf } from '../test/problems.ts';
import { PLAYBOOK_TYPES } from './labels.ts';

const UpdatePlaybookDocument = graphql(`
  mutation UpdatePlaybook($id: UUID!, $input: UpdatePlaybookInput!) {
    updatePlaybook(id: $id, input: $input) { id version title type tags content }
  }
`);

interface Editable {
  id: string;
  title: string;
  type: PlaybookType;
  tags: string[];
  content: string;
  version: number;
}

/** Edits a playbook made on the version read: a change since is refused by the API (409) and said in words. */
export function PlaybookForm({ playbook, onDone }: { playbook: Editable; onDone(saved: boolean): void }) {
  const [title, setTitle] = useState(playbook.title);
  const [type, setType] = useState(playbook.type);
  const [tags, setTags] = useState(playbook.tags.join(', '));
  const [content, setContent] = useState(playbook.content);
  const [problem, setProblem] = useState<Problem>();
  const [{ fetching }, update] = useMutation(UpdatePlaybookDocument);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = {
      title,
      type,
      content,
      tags: tags
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
      version: playbook.version,
    };
    const result = await update({ id: playbook.id, input });
    setProblem(problemOf(result.error));
    if (!result.error) onDone(true);
  };
  return (
    <form aria-labelledby="edit-playbook-title" onSubmit={submit} className="knowledge-form">
      <h2 id="edit-playbook-title">Edit playbook</h2>
      <fieldset disabled={fetching}>
        <legend className="visually-hidden">Playbook fields</legend>
        <Field id="playbook-title-input" label="Title" error={fieldProblem(problem, 'title')}>
          {(describedBy) => (
            <input id="playbook-title-input" value={title} aria-describedby={describedBy} onChange={(e) => setTitle(e.target.value)} />
          )}
        </Field>
        <Field id="playbook-type" label="Type" error={fieldProblem(problem, 'type')}>
          {(describedBy) => (
            <select
              id="playbook-type"
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
        <Field id="playbook-tags" label="Tags (comma separated)" error={fieldProblem(problem, 'tags')}>
          {(describedBy) => (
            <input id="playbook-tags" value={tags} aria-describedby={describedBy} onChange={(e) => setTags(e.target.value)} />
          )}
        </Field>
        <Field id="playbook-content" label="Content (markdown)" error={fieldProblem(problem, 'content')}>
          {(describedBy) => (
            <textarea
              id="playbook-content"
              rows={14}
              value={content}
              aria-describedby={describedBy}
              onChange={(e) => setContent(e.target.value)}
            />
          )}
        </Field>
        <div className="card-actions">
          <button type="submit" className="button primary">
            Save playbook
          </button>
          <button type="button" className="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
      </fieldset>
      {problem && !['title', 'type', 'tags', 'content'].includes(problem.field ?? '') && (
        <p role="alert" className="error">
          {problem.code === 'CONFLICT' ? `${problem.message}. Cancel to see the current version, then edit again.` : problem.message}
        </p>
      )}
    </form>
  );
}
