import { builder } from '../../graphql/builder.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import { snakeToCamel } from '../../naming.ts';
import { TEST_STATES } from './states.ts';

/** Tests per state, keyed by state, every state present (zeros included). */
export type StateCounts = Record<TestState, number>;

/** `count(*) FILTER (WHERE <column> = '<state>')::int AS "<state>"` for every state of the table, in its order. */
export const stateCountColumns = (column: Prisma.Sql = Prisma.sql`state`): Prisma.Sql =>
  Prisma.join(
    TEST_STATES.map((state) => Prisma.sql`(count(*) FILTER (WHERE ${column} = ${state}::"TestState"))::int AS ${Prisma.raw(`"${state}"`)}`),
    ', ',
  );

/** A GraphQL object with one count per test state (`redExecuting` for red_executing …), and the total when asked. */
export function stateCountsType<T extends StateCounts & { total?: number }>(
  name: string,
  description: string,
  options: { total?: boolean } = {},
) {
  return builder.objectRef<T>(name).implement({
    description,
    fields: (t) => ({
      ...(options.total ? { total: t.int({ resolve: (counts) => counts.total ?? 0 }) } : {}),
      ...Object.fromEntries(TEST_STATES.map((state) => [snakeToCamel(state), t.int({ resolve: (counts) => counts[state] })])),
    }),
  });
}
