import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { WebhookDetail } from './WebhookDetail.tsx';
import { WebhookForm } from './WebhookForm.tsx';

const PAGE = 50;

const WebhooksDocument = graphql(`
  query AdminWebhooks($offset: Int!, $limit: Int!) {
    webhookEvents
    webhooks(offset: $offset, limit: $limit) { id url description events isActive consecutiveFailures disabledReason }
  }
`);

/** The webhooks: create one, and `?webhook=<id>` opens one to edit, test, delete and read its delivery log. */
export default function WebhooksPage() {
  const [search, setSearch] = useUrlState();
  const selected = search.get('webhook');
  const offset = offsetIn(search);
  const [{ data, error }, refetch] = useQuery({ query: WebhooksDocument, variables: { offset, limit: PAGE } });
  const [created, setCreated] = useState<string>();
  const [formKey, setFormKey] = useState(0);
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      {error && <p role="alert">The webhooks could not be loaded: {error.message}</p>}
      {data && (
        <>
          <details className="admin-card">
            <summary>Create a webhook</summary>
            <WebhookForm
              key={formKey}
              events={data.webhookEvents}
              onSaved={(id) => {
                setFormKey(formKey + 1);
                setCreated('Webhook created.');
                setSearch({ webhook: id });
                refresh();
              }}
            />
          </details>
          {created && <p role="status">{created}</p>}
          <table className="admin-table">
            <caption>{`Webhooks ${offset + 1}–${offset + data.webhooks.length}`}</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Description</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.webhooks.map((webhook) => (
                <tr key={webhook.id} aria-current={webhook.id === selected ? 'true' : undefined}>
                  <td className="text">
                    <a
                      href={`?webhook=${encodeURIComponent(webhook.id)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        setSearch({ webhook: webhook.id });
                      }}
                    >
                      {webhook.url}
                    </a>
                  </td>
                  <td className="text">{webhook.description ?? '—'}</td>
                  <td>{webhook.events.join(', ') || '—'}</td>
                  <td className="text">
                    {webhook.isActive ? 'Active' : `Disabled${webhook.disabledReason ? `: ${webhook.disabledReason}` : ''}`}
                    {webhook.consecutiveFailures > 0 && `, ${webhook.consecutiveFailures} failures in a row`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            label="Webhook"
            offset={offset}
            limit={PAGE}
            count={data.webhooks.length}
            more={data.webhooks.length === PAGE}
            onOffset={(next) => setSearch({ offset: offsetValue(next) })}
          />
          {selected && (
            <WebhookDetail
              key={selected}
              id={selected}
              events={data.webhookEvents}
              onChanged={refresh}
              onDeleted={() => {
                setSearch({ webhook: undefined });
                setCreated('Webhook deleted.');
                refresh();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
