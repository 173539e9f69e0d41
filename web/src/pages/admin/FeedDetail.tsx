import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { PagedTable } from '../../components/PagedTable.tsx';
import { RecordActions } from './RecordActions.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { useAction, when } from './admin-forms.ts';
import { FEED_KIND_NAMES, FeedForm } from './FeedForm.tsx';

const RUNS_PAGE = 10;
const ITEMS_PAGE = 20;
const RUN_COLUMNS = ['Started', 'Status', 'Trigger', 'Read', 'Added', 'Flagged', 'Notes or error'];
const ITEM_COLUMNS = ['Title', 'Published', 'Techniques', 'Review'];

const OsintFeedDocument = graphql(`
  query AdminOsintFeed($id: UUID!, $runOffset: Int!, $itemOffset: Int!, $runLimit: Int!, $itemLimit: Int!) {
    osintFeed(id: $id) {
      id name kind location collection schedule enabled status error itemCount lastRunAt lastSuccessAt addedAfter
    }
    osintFeedRuns(feedId: $id, offset: $runOffset, limit: $runLimit) {
      total
      items { id status trigger startedAt finishedAt itemsSeen itemsAdded flagged notes error }
    }
    osintItems(feedId: $id, offset: $itemOffset, limit: $itemLimit) {
      total
      items { id title link publishedAt createdAt review techniques { techniqueId ttpId mentioned name } }
    }
  }
`);

const SyncOsintFeedDocument = graphql(`
  mutation SyncOsintFeed($id: UUID!) {
    syncOsintFeed(id: $id) { id status itemsSeen itemsAdded flagged notes error }
  }
`);

const DeleteOsintFeedDocument = graphql(`
  mutation DeleteOsintFeed($id: UUID!) {
    deleteOsintFeed(id: $id)
  }
`);

/** The link of an item when it is a web address; anything else (javascript:, data:) is not offered as a link. */
function webLink(link: string | null | undefined) {
  if (!link) return undefined;
  try {
    return ['http:', 'https:'].includes(new URL(link).protocol) ? link : undefined;
  } catch {
    return undefined;
  }
}

/** What a sync did, in one sentence. */
function runSummary(run: {
  status: string;
  itemsSeen: number;
  itemsAdded: number;
  flagged: number;
  notes: string[];
  error?: string | null;
}) {
  if (run.error) return `Sync failed: ${run.error}`;
  const notes = run.notes.length ? ` ${run.notes.join('; ')}.` : '';
  return `Sync ${run.status}: ${run.itemsSeen} items read, ${run.itemsAdded} added, ${run.flagged} techniques flagged.${notes}`;
}

/** One feed: its health, its settings, "Sync now" with its result, deletion, its runs and its most recent items. */
export function FeedDetail(props: { id: string; onChanged(): void; onDeleted(): void }) {
  const [search, setSearch] = useUrlState();
  const runOffset = offsetIn(search, 'runs');
  const itemOffset = offsetIn(search, 'items');
  const [{ data, error }, refetch] = useQuery({
    query: OsintFeedDocument,
    variables: { id: props.id, runOffset, itemOffset, runLimit: RUNS_PAGE, itemLimit: ITEMS_PAGE },
  });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  const changed = () => {
    refresh();
    props.onChanged();
  };
  const syncing = useAction(SyncOsintFeedDocument);
  const deleting = useAction(DeleteOsintFeedDocument);
  if (error) return <p role="alert">The feed could not be loaded: {error.message}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const feed = data.osintFeed;
  return (
    <section aria-labelledby="feed-title" className="admin-card">
      <h2 id="feed-title" className="text">{`Feed ${feed.name}`}</h2>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{FEED_KIND_NAMES[feed.kind]}</dd>
        <dt>Items held</dt>
        <dd>{feed.itemCount}</dd>
        <dt>Last fetch</dt>
        <dd>{`${when(feed.lastRunAt)} (last success: ${when(feed.lastSuccessAt)})`}</dd>
        <dt>Last error</dt>
        <dd className="text" data-testid="feed-last-error">
          {feed.error ?? 'None'}
        </dd>
      </dl>
      <FeedForm
        key={JSON.stringify([feed.name, feed.kind, feed.location, feed.collection, feed.schedule, feed.enabled])}
        feed={feed}
        onSaved={changed}
      />
      <RecordActions
        outcome={syncing}
        deleting={deleting}
        deleteLabel="Delete feed"
        question="Delete this feed, its runs and its items?"
        onDelete={async () => {
          if (await deleting.run({ id: feed.id }, 'Feed deleted.')) props.onDeleted();
        }}
      >
        <button
          type="button"
          className="button"
          disabled={syncing.busy}
          onClick={async () => {
            if (await syncing.run({ id: feed.id }, (result) => runSummary(result.syncOsintFeed))) changed();
          }}
        >
          {syncing.busy ? 'Syncing…' : 'Sync now'}
        </button>
      </RecordActions>
      <PagedTable
        caption={`Run history: ${data.osintFeedRuns.total} runs, newest first`}
        columns={RUN_COLUMNS}
        pager={{
          label: 'Run',
          offset: runOffset,
          limit: RUNS_PAGE,
          count: data.osintFeedRuns.items.length,
          total: data.osintFeedRuns.total,
          onOffset: (next) => setSearch({ runs: offsetValue(next) }),
        }}
      >
        {data.osintFeedRuns.items.map((run) => (
          <tr key={run.id}>
            <td>{when(run.startedAt)}</td>
            <td>{run.status}</td>
            <td>{run.trigger}</td>
            <td>{run.itemsSeen}</td>
            <td>{run.itemsAdded}</td>
            <td>{run.flagged}</td>
            <td className="text">{run.error ?? (run.notes.join('; ') || '—')}</td>
          </tr>
        ))}
      </PagedTable>
      <PagedTable
        caption={`Items: ${data.osintItems.total}, most recent first`}
        columns={ITEM_COLUMNS}
        pager={{
          label: 'Item',
          offset: itemOffset,
          limit: ITEMS_PAGE,
          count: data.osintItems.items.length,
          total: data.osintItems.total,
          onOffset: (next) => setSearch({ items: offsetValue(next) }),
        }}
      >
        {data.osintItems.items.map((item) => {
          const href = webLink(item.link);
          return (
            <tr key={item.id}>
              <td className="text">
                {href ? (
                  <a href={href} rel="noopener noreferrer nofollow" target="_blank">
                    {item.title}
                  </a>
                ) : (
                  item.title
                )}
              </td>
              <td>{when(item.publishedAt ?? item.createdAt)}</td>
              <td className="text">
                {item.techniques.length
                  ? item.techniques.map((technique, index) => (
                      <span key={technique.techniqueId}>
                        {index > 0 && ', '}
                        <Link to={`/techniques/${encodeURIComponent(technique.ttpId)}`} title={technique.name}>
                          {technique.ttpId}
                        </Link>
                      </span>
                    ))
                  : '—'}
              </td>
              <td>{item.review.replace('_', ' ')}</td>
            </tr>
          );
        })}
      </PagedTable>
    </section>
  );
}
