import { useQuery } from 'urql';
import { inRoleSet } from '../../access.tsx';
import { graphql } from '../../gql';
import { useSession } from '../../session.tsx';

/** How many recent feed items the technique page lists. */
const RECENT = 5;

const TechniqueIntelDocument = graphql(`
  query TechniqueIntelItems($ttpId: String!, $limit: Int!) {
    osintItems(ttpId: $ttpId, limit: $limit) {
      total
      items { id title link publishedAt createdAt feedName review }
    }
  }
`);

const REVIEW_LABELS: Record<string, string> = {
  not_flagged: 'Not flagged',
  flagged: 'Flagged for review',
  reviewed: 'Reviewed',
  dismissed: 'Dismissed',
};

/**
 * The latest threat-intelligence feed items that mention the technique. The leads read the OSINT module, so the
 * section asks for the items itself and shows nothing to other roles.
 */
export function IntelItems({ ttpId }: { ttpId: string }) {
  const { viewer } = useSession();
  const allowed = inRoleSet(viewer, 'leads');
  const [{ data, error }] = useQuery({ query: TechniqueIntelDocument, variables: { ttpId, limit: RECENT }, pause: !allowed });
  if (!allowed) return null;
  const page = data?.osintItems;
  return (
    <section aria-labelledby="intel-items-title">
      <h2 id="intel-items-title">Recent intel</h2>
      {error && <p role="alert">The feed items could not be loaded: {error.graphQLErrors[0]?.message ?? error.message}</p>}
      {page && page.items.length === 0 && <p>No feed item mentions {ttpId}.</p>}
      {page && page.items.length > 0 && (
        <>
          <ul>
            {page.items.map((item) => (
              <li key={item.id}>
                {item.link ? (
                  <a href={item.link} rel="noreferrer noopener" target="_blank">
                    {item.title}
                  </a>
                ) : (
                  item.title
                )}{' '}
                · {item.feedName} · {new Date(item.publishedAt ?? item.createdAt).toLocaleDateString()} ·{' '}
                {REVIEW_LABELS[item.review] ?? item.review}
              </li>
            ))}
          </ul>
          {page.total > page.items.length && (
            <p>
              {page.total - page.items.length} more in the feeds (<code>GET /api/v1/osint/techniques/{ttpId}/items</code>).
            </p>
          )}
        </>
      )}
    </section>
  );
}
