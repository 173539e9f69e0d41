import { type FormEvent, useState } from 'react';
import { graphql } from '../../gql';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, orNull, useAction } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { SwitchAndSubmit } from './SwitchAndSubmit.tsx';

const CreateWebhookDocument = graphql(`
  mutation CreateWebhook($input: CreateWebhookInput!) {
    createWebhook(input: $input) { id }
  }
`);

const UpdateWebhookDocument = graphql(`
  mutation UpdateWebhook($id: UUID!, $input: UpdateWebhookInput!) {
    updateWebhook(id: $id, input: $input) { id url description events isActive secret }
  }
`);

export interface WebhookValues {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  isActive: boolean;
  secret: string | null;
}

const FIELDS = ['url', 'description', 'events', 'secret'];

/**
 * The edit of a webhook, held by the page that shows it: the form is keyed by what it saved and mounted afresh once
 * the saved webhook is read back, and the outcome must survive that.
 */
export const useWebhookUpdate = () => useAction(UpdateWebhookDocument);
export type WebhookUpdate = ReturnType<typeof useWebhookUpdate>;

/**
 * Creates a webhook, or edits `webhook` when given. The secret is write-only: the form only says whether one is
 * set, and sends a new one (or its removal) when asked to.
 */
export function WebhookForm(props: { events: string[]; webhook?: WebhookValues; updating?: WebhookUpdate; onSaved(id: string): void }) {
  const existing = props.webhook;
  const prefix = existing ? 'edit' : 'new';
  const [url, setUrl] = useState(existing?.url ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [events, setEvents] = useState<string[]>(existing?.events ?? []);
  const [isActive, setActive] = useState(existing?.isActive ?? true);
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const creating = useAction(CreateWebhookDocument);
  const ownUpdating = useWebhookUpdate();
  const updating = props.updating ?? ownUpdating;
  const action = existing ? updating : creating;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const common = { url, description: orNull(description), events, isActive };
    if (existing) {
      const input = { ...common, ...(removeSecret ? { secret: null } : secret ? { secret } : {}) };
      if (await updating.run({ id: existing.id, input }, 'Webhook saved.')) {
        setSecret('');
        setRemoveSecret(false);
        props.onSaved(existing.id);
      }
    } else {
      const data = await creating.run({ input: { ...common, secret: orNull(secret) } }, 'Webhook created.');
      if (data) props.onSaved(data.createWebhook.id);
    }
  };
  const toggle = (name: string, on: boolean) =>
    setEvents((current) => (on ? [...current, name] : current.filter((candidate) => candidate !== name)));
  return (
    <form aria-label={existing ? 'Webhook settings' : 'New webhook'} onSubmit={submit}>
      <fieldset disabled={action.busy} className="admin-grid">
        <legend className="visually-hidden">{existing ? 'Webhook settings' : 'New webhook'}</legend>
        <Field id={`${prefix}-webhook-url`} label="URL" error={fieldProblem(action.problem, 'url')}>
          {(describedBy) => (
            <input
              id={`${prefix}-webhook-url`}
              type="url"
              required
              value={url}
              aria-describedby={describedBy}
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <Field id={`${prefix}-webhook-description`} label="Description" error={fieldProblem(action.problem, 'description')}>
          {(describedBy) => (
            <input
              id={`${prefix}-webhook-description`}
              value={description}
              aria-describedby={describedBy}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <Field
          id={`${prefix}-webhook-secret`}
          label={existing ? 'New signing secret' : 'Signing secret'}
          error={fieldProblem(action.problem, 'secret')}
        >
          {(describedBy) => (
            <input
              id={`${prefix}-webhook-secret`}
              type="password"
              autoComplete="off"
              value={secret}
              disabled={removeSecret}
              aria-describedby={describedBy ?? `${prefix}-webhook-secret-hint`}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </Field>
        <p id={`${prefix}-webhook-secret-hint`} className="hint">
          {existing
            ? `${existing.secret ? 'Deliveries are signed; the secret is never shown.' : 'Deliveries are not signed.'} Leave empty to keep it.`
            : 'whsec_… or any text of 16 characters or more; never shown again. Empty: deliveries are not signed.'}
        </p>
        {existing?.secret && (
          <label className="checkbox">
            <input type="checkbox" checked={removeSecret} onChange={(e) => setRemoveSecret(e.target.checked)} />
            Remove the secret (deliveries go unsigned)
          </label>
        )}
      </fieldset>
      <fieldset disabled={action.busy} aria-describedby={fieldProblem(action.problem, 'events') ? `${prefix}-events-error` : undefined}>
        <legend>Events</legend>
        {props.events.map((name) => (
          <label key={name} className="checkbox">
            <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
            {name}
          </label>
        ))}
        {fieldProblem(action.problem, 'events') && (
          <p id={`${prefix}-events-error`} role="alert" className="error">
            {fieldProblem(action.problem, 'events')}
          </p>
        )}
      </fieldset>
      <SwitchAndSubmit
        label="Active"
        on={isActive}
        onSwitch={setActive}
        busy={action.busy}
        submit={existing ? 'Save webhook' : 'Create webhook'}
      />
      <Outcome problem={action.problem} done={action.done} fieldsShown={FIELDS} />
    </form>
  );
}
