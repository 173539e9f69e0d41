import { type FormEvent, useState } from 'react';
import { graphql } from '../../gql';
import type { TrackerKind } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, orNull, useAction } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { SwitchAndSubmit } from './SwitchAndSubmit.tsx';

const CreateTrackerConnectionDocument = graphql(`
  mutation CreateTrackerConnection($input: CreateTrackerConnectionInput!) {
    createTrackerConnection(input: $input) { id }
  }
`);

const UpdateTrackerConnectionDocument = graphql(`
  mutation UpdateTrackerConnection($id: UUID!, $input: UpdateTrackerConnectionInput!) {
    updateTrackerConnection(id: $id, input: $input) { id name kind baseUrl project issueType username webhookSecret isActive lastError }
  }
`);

export interface TrackerConnectionValues {
  id: string;
  name: string;
  kind: TrackerKind;
  baseUrl: string;
  project: string;
  issueType: string;
  username: string | null;
  webhookSecret: string | null;
  fieldMapping: unknown;
  statusMapping: unknown;
  isActive: boolean;
}

export const KIND_NAMES: Record<TrackerKind, string> = {
  jira_cloud: 'Jira Cloud',
  jira_dc: 'Jira Data Center',
  github: 'GitHub Issues',
};

const FIELDS = [
  'name',
  'kind',
  'baseUrl',
  'project',
  'issueType',
  'username',
  'credential',
  'webhookSecret',
  'fieldMapping',
  'statusMapping',
];

/** The text of a mapping for its text box: empty when none is set. */
const mappingText = (value: unknown) => (value && Object.keys(value as object).length ? JSON.stringify(value, null, 2) : '');

/** A mapping typed as JSON, or the words of why it is not an object. */
function parseMapping(text: string): { value: unknown } | { error: string } {
  if (!text.trim()) return { value: {} };
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? { value } : { error: 'must be a JSON object' };
  } catch {
    return { error: 'is not valid JSON' };
  }
}

/**
 * Adds a tracker connection, or edits `connection` when given. The token and the webhook secret are write-only:
 * the form only says whether a secret is set and sends new ones when typed.
 */
export function TrackerConnectionForm(props: { connection?: TrackerConnectionValues; onSaved(id: string): void }) {
  const existing = props.connection;
  const prefix = existing ? 'edit-tracker' : 'new-tracker';
  const [name, setName] = useState(existing?.name ?? '');
  const [kind, setKind] = useState<TrackerKind>(existing?.kind ?? 'jira_cloud');
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? '');
  const [project, setProject] = useState(existing?.project ?? '');
  const [issueType, setIssueType] = useState(existing?.issueType ?? '');
  const [username, setUsername] = useState(existing?.username ?? '');
  const [credential, setCredential] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [fieldMapping, setFieldMapping] = useState(mappingText(existing?.fieldMapping));
  const [statusMapping, setStatusMapping] = useState(mappingText(existing?.statusMapping));
  const [mappingProblem, setMappingProblem] = useState<{ field: string; message: string }>();
  const [isActive, setActive] = useState(existing?.isActive ?? true);
  const creating = useAction(CreateTrackerConnectionDocument);
  const updating = useAction(UpdateTrackerConnectionDocument);
  const action = existing ? updating : creating;
  const problem = mappingProblem ?? action.problem;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields = parseMapping(fieldMapping);
    const statuses = parseMapping(statusMapping);
    if ('error' in fields) return setMappingProblem({ field: 'fieldMapping', message: `Field mapping ${fields.error}` });
    if ('error' in statuses) return setMappingProblem({ field: 'statusMapping', message: `Status mapping ${statuses.error}` });
    setMappingProblem(undefined);
    const common = {
      name,
      kind,
      baseUrl,
      project,
      issueType: orNull(issueType) ?? undefined,
      fieldMapping: fields.value,
      statusMapping: statuses.value,
      isActive,
    };
    if (existing) {
      const input = {
        ...common,
        username: orNull(username),
        ...(credential ? { credential } : {}),
        ...(webhookSecret ? { webhookSecret } : {}),
      };
      if (await updating.run({ id: existing.id, input }, 'Connection saved.')) {
        setCredential('');
        setWebhookSecret('');
        props.onSaved(existing.id);
      }
    } else {
      const input = { ...common, username: orNull(username), credential, webhookSecret: orNull(webhookSecret) };
      const data = await creating.run({ input }, 'Connection added.');
      if (data) props.onSaved(data.createTrackerConnection.id);
    }
  };
  const text = (field: string, label: string, value: string, set: (value: string) => void, extra: Record<string, unknown> = {}) => (
    <Field id={`${prefix}-${field}`} label={label} error={fieldProblem(problem, field)}>
      {(describedBy) => (
        <input id={`${prefix}-${field}`} value={value} aria-describedby={describedBy} onChange={(e) => set(e.target.value)} {...extra} />
      )}
    </Field>
  );
  return (
    <form aria-label={existing ? 'Connection settings' : 'New tracker connection'} onSubmit={submit}>
      <fieldset disabled={action.busy} className="admin-grid">
        <legend className="visually-hidden">{existing ? 'Connection settings' : 'New tracker connection'}</legend>
        {text('name', 'Name', name, setName, { required: true })}
        <Field id={`${prefix}-kind`} label="Tracker" error={fieldProblem(problem, 'kind')}>
          {(describedBy) => (
            <select
              id={`${prefix}-kind`}
              value={kind}
              aria-describedby={describedBy}
              onChange={(e) => setKind(e.target.value as TrackerKind)}
            >
              {Object.entries(KIND_NAMES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('baseUrl', 'Base URL', baseUrl, setBaseUrl, { type: 'url', required: true, placeholder: 'https://acme.atlassian.net' })}
        {text('project', kind === 'github' ? 'Repository (owner/repo)' : 'Project key', project, setProject, { required: true })}
        {kind !== 'github' && text('issueType', 'Issue type', issueType, setIssueType, { placeholder: 'Task' })}
        {kind !== 'github' && text('username', 'User name (empty: bearer token)', username, setUsername, { autoComplete: 'off' })}
        {text('credential', existing ? 'New API token' : 'API token', credential, setCredential, {
          type: 'password',
          autoComplete: 'off',
          required: !existing,
        })}
        {text('webhookSecret', existing ? 'New inbound webhook secret' : 'Inbound webhook secret', webhookSecret, setWebhookSecret, {
          type: 'password',
          autoComplete: 'off',
        })}
        <p className="hint">
          {existing
            ? `The token is never shown; ${existing.webhookSecret ? 'inbound webhooks are verified' : 'no inbound webhook secret is set'}. Leave empty to keep.`
            : 'Never shown again. The webhook secret (16+ characters) verifies webhooks the tracker sends back.'}
        </p>
        <Field id={`${prefix}-fieldMapping`} label="Field mapping (JSON)" error={fieldProblem(problem, 'fieldMapping')}>
          {(describedBy) => (
            <textarea
              id={`${prefix}-fieldMapping`}
              rows={3}
              value={fieldMapping}
              placeholder='{ "labels": ["purple-team"] }'
              aria-describedby={describedBy}
              onChange={(e) => setFieldMapping(e.target.value)}
            />
          )}
        </Field>
        <Field id={`${prefix}-statusMapping`} label="Status mapping (JSON)" error={fieldProblem(problem, 'statusMapping')}>
          {(describedBy) => (
            <textarea
              id={`${prefix}-statusMapping`}
              rows={3}
              value={statusMapping}
              placeholder={`{ "Done": "completed", "Won't Do": "not_applicable" }`}
              aria-describedby={describedBy}
              onChange={(e) => setStatusMapping(e.target.value)}
            />
          )}
        </Field>
      </fieldset>
      <SwitchAndSubmit
        label="Active"
        on={isActive}
        onSwitch={setActive}
        busy={action.busy}
        submit={existing ? 'Save connection' : 'Add connection'}
      />
      <Outcome problem={problem} done={!mappingProblem && action.done} fieldsShown={FIELDS} />
    </form>
  );
}
