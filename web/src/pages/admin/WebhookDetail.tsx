import { useEffect } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { PagedTable } from '../../components/PagedTable.tsx';
import { RecordActions } from './RecordActions.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { useAction, when } from './admin-forms.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { WebhookForm, useWebhookUpdate } from './WebhookForm.tsx';

const DELIVERY_PAGE = 20;
const DELIVERY_COLUMNS = ['Created', 'Event', 'Status', 'Attempts', 'Answer', 'Actions'];
/** The delivery log asks again at most this often while a delivery is pending. */
const POLL_MS = 2000;

const WebhookDocument = graphql(`
  query AdminWebhook($id: UUID!, $offset: Int!, $limit: Int!) {
    webhook(id: $id) { id url description events isActive secret createdAt }
    webhookDeliveries(webhookId: $id, offset: $offset, limit: $limit) {
      items { id event status attempts statusCode error durationMs createdAt completedAt }
      total
    }
  }
`);

const TestWebhookDocument = graphql(`
  mutation TestWebhook($id: UUID!) {
    testWebhook(id: $id) { deliveryId detail }
  }
`);

const DeleteWebhookDocument = graphql(`
  mutation DeleteWebhook($id: UUID!) {
    deleteWebhook(id: $id)
  }
`);

const RedeliverDocument = graphql(`
  mutation RedeliverWebhookDelivery($webhookId: UUID!, $deliveryId: UUID!) {
    redeliverWebhookDelivery(webhookId: $webhookId, deliveryId: $deliveryId) { id status }
  }
`);

/** One webhook: its settings, a test send, deletion after a confirmation, and its delivery log with redelivery. */
export function WebhookDetail(props: { id: string; events: string[]; onChanged(): void; onDeleted(): void }) {
  const [search, setSearch] = useUrlState();
  const offset = offsetIn(search, 'deliveries');
  const [{ data, error }, refetch] = useQuery({ query: WebhookDocument, variables: { id: props.id, offset, limit: DELIVERY_PAGE } });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const changed = () => {
    refresh();
    props.onChanged();
  };
  const testing = useAction(TestWebhookDocument);
  const deleting = useAction(DeleteWebhookDocument);
  const redelivering = useAction(RedeliverDocument);
  const updating = useWebhookUpdate();
  const pending = data?.webhookDeliveries.items.some((delivery) => delivery.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearInterval(timer);
  }, [pending, refetch]);
  if (error) return <p role="alert">The webhook could not be loaded: {error.message}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const { webhook } = data;
  return (
    <section aria-labelledby="webhook-title" className="admin-card">
      <h2 id="webhook-title" className="text">{`Webhook ${webhook.url}`}</h2>
      <WebhookForm
        key={`${webhook.url}|${webhook.events.join()}|${String(webhook.isActive)}|${webhook.secret ?? ''}|${webhook.description ?? ''}`}
        events={props.events}
        webhook={webhook}
        updating={updating}
        onSaved={changed}
      />
      <RecordActions
        outcome={testing}
        deleting={deleting}
        deleteLabel="Delete webhook"
        question="Delete this webhook and its delivery log for good?"
        onDelete={async () => {
          if (await deleting.run({ id: webhook.id }, 'Webhook deleted.')) props.onDeleted();
        }}
      >
        <button
          type="button"
          className="button"
          disabled={testing.busy}
          onClick={async () => {
            if (await testing.run({ id: webhook.id }, (result) => result.testWebhook.detail)) refresh();
          }}
        >
          Send a test
        </button>
      </RecordActions>
      <PagedTable
        caption={`Delivery log, newest first${pending ? ' (checking every 2 seconds while one is pending)' : ''}`}
        columns={DELIVERY_COLUMNS}
        below={<Outcome problem={redelivering.problem} done={redelivering.done} />}
        pager={{
          label: 'Delivery log',
          offset,
          limit: DELIVERY_PAGE,
          count: data.webhookDeliveries.items.length,
          total: data.webhookDeliveries.total,
          onOffset: (next) => setSearch({ deliveries: offsetValue(next) }),
        }}
      >
        {data.webhookDeliveries.items.map((delivery) => (
          <tr key={delivery.id}>
            <td>{when(delivery.createdAt)}</td>
            <td>{delivery.event}</td>
            <td>{delivery.status}</td>
            <td>{delivery.attempts}</td>
            <td className="text">
              {delivery.error ?? (delivery.statusCode ? `HTTP ${delivery.statusCode}` : '—')}
              {delivery.durationMs !== null && delivery.durationMs !== undefined ? ` in ${delivery.durationMs} ms` : ''}
            </td>
            <td>
              {delivery.status !== 'pending' && (
                <button
                  type="button"
                  className="button small"
                  disabled={redelivering.busy}
                  onClick={async () => {
                    const done = await redelivering.run(
                      { webhookId: webhook.id, deliveryId: delivery.id },
                      `${delivery.event} delivery sent again.`,
                    );
                    if (done) refresh();
                  }}
                >
                  {`Redeliver ${delivery.event} of ${when(delivery.createdAt)}`}
                </button>
              )}
            </td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}
