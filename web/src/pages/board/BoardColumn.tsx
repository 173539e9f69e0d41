import { Pager, totalLabel } from '../../components/Pager.tsx';
import { type FragmentType, graphql, useFragment } from '../../gql';
import type { TestState } from '../../gql/graphql.ts';
import { TestCard, type TestCardFragment } from './TestCard.tsx';

export const BoardColumnFragment = graphql(`
  fragment BoardColumn on TestPage {
    total
    totalExact
    offset
    limit
    items { id ...TestCard }
  }
`);

interface Props {
  state: TestState;
  label: string;
  page: FragmentType<typeof BoardColumnFragment> | undefined;
  /** Cards that moved here since the page was read (shown first), and every card that moved (not shown from the page). */
  arrivals: FragmentType<typeof TestCardFragment>[];
  departed: ReadonlySet<string>;
  onChanged(): void;
  onPage(offset: number): void;
}

/** One state's column: a server-side page of its tests with previous/next. */
export function BoardColumn({ state, label, page: masked, arrivals, departed, onChanged, onPage }: Props) {
  const page = useFragment(BoardColumnFragment, masked);
  const headingId = `column-${state}`;
  return (
    <section className="column" aria-labelledby={headingId} data-state={state}>
      <h2 id={headingId}>
        {label} <span className="count">{page ? totalLabel(page.total, page.totalExact) : ''}</span>
      </h2>
      <ul className="cards" aria-label={`${label} tests`}>
        {arrivals.map((test, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a test moves at most once into a column between two answers
          <TestCard key={`moved-${index}`} test={test} onChanged={onChanged} />
        ))}
        {page?.items
          .filter((item) => !departed.has(item.id))
          .map((item) => (
            <TestCard key={item.id} test={item} onChanged={onChanged} />
          ))}
      </ul>
      {page && (
        <Pager
          label={label}
          offset={page.offset}
          limit={page.limit}
          count={page.items.length}
          total={page.total}
          totalExact={page.totalExact}
          onOffset={onPage}
        />
      )}
    </section>
  );
}
