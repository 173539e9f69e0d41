import { type FormEvent, useState } from 'react';
import { useMutation } from 'urql';
import { Field } from '../../components/Field.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import { fieldProblem, type Problem, problemOf } from '../../components/problems.ts';
import { graphql } from '../../gql';
import type { PlaybookType } from '../../gql/graphql.ts';
import { Markdown } from '../../markdown/Markdown.tsx';
import { PLAYBOOK_TYPES } from './labels.ts';
import { useTechniqueLookup } from './technique-lookup.ts';

const CreatePlaybookDocument = graphql(`
  mutation CreatePlaybook($input: CreatePlaybookInput!) {
    createPlaybook(input: $input) { id }
  }
`);

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

const FIELDS = ['techniqueId', 'title', 'type', 'tags', 'content'];

const tagList = (tags: string) =>
  tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/**
 * Writes a new playbook (its technique named by ATT&CK id, `ttpId` to start with) or edits `playbook` on the version
 * read, with a preview of the markdown. An edit made on a version changed since is refused by the API (409), said in words.
 */
export function PlaybookForm(props: { playbook?: Editable; ttpId?: string; onSaved(id: string): void; onCancel(): void }) {
  const { playbook } = props;
  const prefix = playbook ? 'playbook' : 'new-playbook';
  const headingId = playbook ? 'edit-playbook-title' : 'new-playbook-title';
  const Heading = playbook ? 'h2' : 'h1';
  const PreviewHeading = playbook ? 'h3' : 'h2';
  const [ttpId, setTtpId] = useState(props.ttpId ?? '');
  const [title, setTitle] = useState(playbook?.title ?? '');
  const [type, setType] = useState<PlaybookType>(playbook?.type ?? 'execution');
  const [tags, setTags] = useState(playbook?.tags.join(', ') ?? '');
  const [content, setContent] = useState(playbook?.content ?? '');
  const [problem, setProblem] = useState<Problem>();
  const [looking, setLooking] = useState(false);
  const findTechnique = useTechniqueLookup();
  const [creating, create] = useMutation(CreatePlaybookDocument);
  const [updating, update] = useMutation(UpdatePlaybookDocument);
  const fields = { title: title.trim(), type, content, tags: tagList(tags) };
  const createPlaybook = async () => {
    setLooking(true);
    const technique = await findTechnique(ttpId);
    setLooking(false);
    if (technique.problem) return setProblem(technique.problem);
    const result = await create({ input: { techniqueId: technique.id, ...fields } });
    setProblem(problemOf(result.error));
    if (result.data) props.onSaved(result.data.createPlaybook.id);
  };
  const updatePlaybook = async (editing: Editable) => {
    const result = await update({ id: editing.id, input: { ...fields, version: editing.version } });
    setProblem(problemOf(result.error));
    if (result.data) props.onSaved(result.data.updatePlaybook.id);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void (playbook ? updatePlaybook(playbook) : createPlaybook());
  };
  return (
    <form aria-labelledby={headingId} onSubmit={submit} className="knowledge-form">
      <Heading id={headingId}>{playbook ? 'Edit playbook' : 'New playbook'}</Heading>
      <fieldset disabled={looking || creating.fetching || updating.fetching}>
        <legend className="visually-hidden">Playbook fields</legend>
        {!playbook && (
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
        )}
        <Field id={`${prefix}-type`} label="Type" error={fieldProblem(problem, 'type')}>
          {(describedBy) => (
            <select
              id={`${prefix}-type`}
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
        <Field id={`${prefix}-title-input`} label="Title" error={fieldProblem(problem, 'title')}>
          {(describedBy) => (
            <input
              id={`${prefix}-title-input`}
              required
              value={title}
              aria-describedby={describedBy}
              onChange={(e) => setTitle(e.target.value)}
            />
          )}
        </Field>
        <Field id={`${prefix}-tags`} label="Tags (comma separated)" error={fieldProblem(problem, 'tags')}>
          {(describedBy) => (
            <input id={`${prefix}-tags`} value={tags} aria-describedby={describedBy} onChange={(e) => setTags(e.target.value)} />
          )}
        </Field>
        <Field id={`${prefix}-content`} label="Content (markdown)" error={fieldProblem(problem, 'content')}>
          {(describedBy) => (
            <textarea
              id={`${prefix}-content`}
              rows={14}
              value={content}
              aria-describedby={describedBy}
              onChange={(e) => setContent(e.target.value)}
            />
          )}
        </Field>
        <section aria-labelledby={`${prefix}-preview`} className="markdown-preview">
          <PreviewHeading id={`${prefix}-preview`}>Preview</PreviewHeading>
          {content.trim() ? <Markdown source={content} /> : <p className="hint">The content, as the playbook will show it.</p>}
        </section>
        <div className="card-actions">
          <button type="submit" className="button primary">
            {playbook ? 'Save playbook' : 'Create playbook'}
          </button>
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
      <Outcome
        problem={
          problem?.code === 'CONFLICT' ? { message: `${problem.message}. Cancel to see the current version, then edit again.` } : problem
        }
        fieldsShown={FIELDS}
      />
    </form>
  );
}
