import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';
import { FilterSelect } from '../../components/FilterSelect.tsx';
import { Pager } from '../../components/Pager.tsx';
import { offsetIn, offsetValue, useUrlState } from '../../url-state.ts';
import { problemOf } from '../../components/problems.ts';
import { groupByTechnique } from './group.ts';
import { isReason, REASON_LABELS } from './reasons.ts';
import { TechniqueEntry } from './TechniqueEntry.tsx';

export const QUEUE_PAGE_SIZE = 50;

const QueueDocument = graphql(`
  query RevalidationQueue($reason: RevalidationReason, $limit: Int!, $offset: Int!) {
    revalidationQueue(reason: $reason, limit: $limit, offset: $offset) { items { id technique { id } ...QueueEntry } total }
  }
`);

const GenerateDocument = graphql(`
  mutation GenerateRevalidationQueue { generateRevalidationQueue { added kept removed total } }
`);

/** The revalidation queue: techniques needing a new test, highest risk first, with every reason and a way to test again. */
export default function RevalidationPage() {
  const { viewer } = useSession();
  const [search, update] = useUrlState();
  const reason = search.get('reason');
  const offset = offsetIn(search);
  const [{ data, error, fetching }, refresh] = useQuery({
    query: QueueDocument,
    variables: { reason: isReason(reason) ? reason : undefined, limit: QUEUE_PAGE_SIZE, offset },
  });
  const [generation, generate] = useMutation(GenerateDocument);
  const [message, setMessage] = useState<{ text: string; problem: boolean }>();
  const entries = data?.revalidationQueue.items ?? [];
  const hasNext = offset + entries.length < (data?.revalidationQueue.total ?? 0);
  const groups = groupByTechnique(entries, (entry) => entry.technique.id);
  const canCreateTests = inRoleSet(viewer, 'leads');

  return (
    <section aria-labelledby="revalidation-title">
      <div className="page-head">
        <h1 id="revalidation-title">Revalidation queue</h1>
        <button
          type="button"
          className="button"
          disabled={generation.fetching}
          onClick={async () => {
            const result = await generate({});
            const counts = result.data?.generateRevalidationQueue;
            setMessage(
              counts
                ? {
                    text: `Queue rebuilt: ${counts.added} added, ${counts.kept} kept, ${counts.removed} removed, ${counts.total} in all.`,
                    problem: false,
                  }
                : { text: `The queue was not rebuilt: ${problemOf(result.error)?.message}`, problem: true },
            );
            refresh({ requestPolicy: 'network-only' });
          }}
        >
          Rebuild the queue
        </button>
      </div>
      <div className="filters">
        <FilterSelect
          id="revalidation-reason"
          label="Reason"
          any="Any reason"
          value={reason}
          options={REASON_LABELS}
          onChange={(value) => update({ reason: value, offset: undefined })}
        />
      </div>
      <p role={message?.problem ? 'alert' : 'status'} className={message?.problem ? 'error' : undefined}>
        {message?.text}
      </p>
      {error && <p role="alert">The queue could not be loaded: {error.message}</p>}
      {fetching && !data && <p className="loading">Loading…</p>}
      {data &&
        (groups.length === 0 ? (
          <p>Nothing needs revalidating{reason ? ' for this reason' : ''}.</p>
        ) : (
          <table className="wide-table">
            <caption>Techniques to test again, highest risk first</caption>
            <thead>
              <tr>
                <th scope="col">Technique</th>
                <th scope="col">Risk</th>
                <th scope="col">Reasons</th>
                {canCreateTests && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <TechniqueEntry key={group.key} entries={group.entries} canCreateTests={canCreateTests} />
              ))}
            </tbody>
          </table>
        ))}
      <Pager
        label="Queue"
        offset={offset}
        limit={QUEUE_PAGE_SIZE}
        count={entries.length}
        more={hasNext}
        onOffset={(next) => update({ offset: offsetValue(next) })}
      />
      <p className="hint">
        <Link to="/matrix">Back to the matrix</Link>
      </p>
    </section>
  );
}
