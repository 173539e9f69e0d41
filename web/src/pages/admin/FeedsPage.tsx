import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { useUrlState } from '../../url-state.ts';
import { when } from './admin-forms.ts';
import { FeedDetail } from './FeedDetail.tsx';
import { FEED_KIND_NAMES, FeedForm } from './FeedForm.tsx';

const OsintFeedsDocument = graphql(`
  query AdminOsintFeeds {
    osintFeeds { id name kind location schedule enabled status error lastRunAt lastRun { id itemsAdded } }
  }
`);

/** The threat-intelligence feeds: add one, and `?feed=<id>` opens one to edit, sync, delete and read its runs and items. */
export default function FeedsPage() {
  const [search, setSearch] = useUrlState();
  const selected = search.get('feed');
  const [{ data, error }, refetch] = useQuery({ query: OsintFeedsDocument });
  const [notice, setNotice] = useState<string>();
  const [formKey, setFormKey] = useState(0);
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="feeds-title">
      <h1 id="feeds-title">Threat-intel feeds</h1>
      <p className="hint">
        RSS, Atom, STIX 2.1 bundles and TAXII 2.1 collections. Items mentioning a technique without validated coverage are flagged for
        review.
      </p>
      {error && <p role="alert">The feeds could not be loaded: {error.message}</p>}
      {data && (
        <>
          <details className="admin-card">
            <summary>Add a feed</summary>
            <FeedForm
              key={formKey}
              onSaved={(id) => {
                setFormKey(formKey + 1);
                setNotice('Feed added.');
                setSearch({ feed: id });
                refresh();
              }}
            />
          </details>
          {notice && <p role="status">{notice}</p>}
          <table className="admin-table">
            <caption>{`Feeds (${data.osintFeeds.length}), by name`}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Location</th>
                <th scope="col">Schedule</th>
                <th scope="col">Enabled</th>
                <th scope="col">Status</th>
                <th scope="col">Last fetch</th>
                <th scope="col">Items added</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {data.osintFeeds.map((feed) => (
                <tr key={feed.id} aria-current={feed.id === selected ? 'true' : undefined}>
                  <td className="text">
                    <a
                      href={`?feed=${encodeURIComponent(feed.id)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        setSearch({ feed: feed.id });
                      }}
                    >
                      {feed.name}
                    </a>
                  </td>
                  <td>{FEED_KIND_NAMES[feed.kind]}</td>
                  <td className="text">{feed.location}</td>
                  <td className="text">{feed.schedule ?? 'On request'}</td>
                  <td>{feed.enabled ? 'Yes' : 'No'}</td>
                  <td>{feed.status.replace('_', ' ')}</td>
                  <td>{when(feed.lastRunAt)}</td>
                  <td>{feed.lastRun[0]?.itemsAdded ?? '—'}</td>
                  <td className="text">{feed.error ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {selected && (
            <FeedDetail
              key={selected}
              id={selected}
              onChanged={refresh}
              onDeleted={() => {
                setSearch({ feed: undefined });
                setNotice('Feed deleted.');
                refresh();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
