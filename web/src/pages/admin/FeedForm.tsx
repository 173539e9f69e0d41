import { type FormEvent, useState } from 'react';
import { graphql } from '../../gql';
import type { OsintFeedKind } from '../../gql/graphql.ts';
import { Field } from '../../components/Field.tsx';
import { fieldProblem, orNull, useAction } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { SwitchAndSubmit } from './SwitchAndSubmit.tsx';

const CreateOsintFeedDocument = graphql(`
  mutation CreateOsintFeed($input: CreateOsintFeedInput!) {
    createOsintFeed(input: $input) { id }
  }
`);

const UpdateOsintFeedDocument = graphql(`
  mutation UpdateOsintFeed($id: UUID!, $input: UpdateOsintFeedInput!) {
    updateOsintFeed(id: $id, input: $input) { id name kind location collection schedule enabled }
  }
`);

export interface FeedValues {
  id: string;
  name: string;
  kind: OsintFeedKind;
  location: string;
  collection: string | null;
  schedule: string | null;
  enabled: boolean;
}

export const FEED_KIND_NAMES: Record<OsintFeedKind, string> = {
  rss: 'RSS',
  atom: 'Atom',
  stix: 'STIX 2.1 bundle',
  taxii: 'TAXII 2.1 collection',
};

const FIELDS = ['name', 'kind', 'location', 'collection', 'schedule'];

/** Adds a threat-intelligence feed, or edits `feed` when given. Feeds hold no secrets: every field is shown. */
export function FeedForm(props: { feed?: FeedValues; onSaved(id: string): void }) {
  const existing = props.feed;
  const prefix = existing ? 'edit-feed' : 'new-feed';
  const [name, setName] = useState(existing?.name ?? '');
  const [kind, setKind] = useState<OsintFeedKind>(existing?.kind ?? 'rss');
  const [location, setLocation] = useState(existing?.location ?? '');
  const [collection, setCollection] = useState(existing?.collection ?? '');
  const [schedule, setSchedule] = useState(existing?.schedule ?? '');
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const creating = useAction(CreateOsintFeedDocument);
  const updating = useAction(UpdateOsintFeedDocument);
  const action = existing ? updating : creating;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // An empty schedule means "on request only"; only a TAXII feed names a collection.
    const input = { name, kind, location, schedule: schedule.trim(), enabled, collection: kind === 'taxii' ? orNull(collection) : null };
    if (existing) {
      if (await updating.run({ id: existing.id, input }, 'Feed saved.')) props.onSaved(existing.id);
    } else {
      const data = await creating.run({ input }, 'Feed added.');
      if (data) props.onSaved(data.createOsintFeed.id);
    }
  };
  const text = (field: string, label: string, value: string, set: (value: string) => void, extra: Record<string, unknown> = {}) => (
    <Field id={`${prefix}-${field}`} label={label} error={fieldProblem(action.problem, field)}>
      {(describedBy) => (
        <input id={`${prefix}-${field}`} value={value} aria-describedby={describedBy} onChange={(e) => set(e.target.value)} {...extra} />
      )}
    </Field>
  );
  return (
    <form aria-label={existing ? 'Feed settings' : 'New feed'} onSubmit={submit}>
      <fieldset disabled={action.busy} className="admin-grid">
        <legend className="visually-hidden">{existing ? 'Feed settings' : 'New feed'}</legend>
        {text('name', 'Name', name, setName, { required: true })}
        <Field id={`${prefix}-kind`} label="Kind" error={fieldProblem(action.problem, 'kind')}>
          {(describedBy) => (
            <select
              id={`${prefix}-kind`}
              value={kind}
              aria-describedby={describedBy}
              onChange={(e) => setKind(e.target.value as OsintFeedKind)}
            >
              {Object.entries(FEED_KIND_NAMES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('location', kind === 'taxii' ? 'Discovery or API root URL' : 'Location (URL or file path)', location, setLocation, {
          required: true,
          placeholder: 'https://example.org/feed.xml',
        })}
        {kind === 'taxii' && text('collection', 'Collection (id or title)', collection, setCollection, { required: true })}
        {text('schedule', 'Schedule (cron, UTC)', schedule, setSchedule, { placeholder: '0 */6 * * *' })}
        <p className="hint">At most hourly; leave the schedule empty to sync on request only.</p>
      </fieldset>
      <SwitchAndSubmit label="Enabled" on={enabled} onSwitch={setEnabled} busy={action.busy} submit={existing ? 'Save feed' : 'Add feed'} />
      <Outcome problem={action.problem} done={action.done} fieldsShown={FIELDS} />
    </form>
  );
}
