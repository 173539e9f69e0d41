import { Prisma } from '../../generated/prisma/client.ts';

/** `100 × part / whole`, rounded to one decimal; null when `whole` is 0 (or `whenEmpty` if given). */
export function percentage(part: Prisma.Sql, whole: Prisma.Sql, whenEmpty: Prisma.Sql = Prisma.sql`NULL`): Prisma.Sql {
  return Prisma.sql`coalesce(round((100.0 * (${part}) / nullif(${whole}, 0))::numeric, 1)::float8, ${whenEmpty})`;
}

/** Coverage weight of a set of techniques: a validated one counts 1, a partial one 0.5. */
export const coveredWeight = (validated: Prisma.Sql, partial: Prisma.Sql) => Prisma.sql`(${validated} + 0.5 * ${partial})`;

export type DurationUnit = 'seconds' | 'hours';

/** JSON keys of a duration summary in `unit`: count, mean<Unit>, median<Unit>, p90<Unit>. */
const keys = (unit: DurationUnit) => {
  const suffix = unit === 'seconds' ? 'Seconds' : 'Hours';
  return { mean: Prisma.raw(`'mean${suffix}'`), median: Prisma.raw(`'median${suffix}'`), p90: Prisma.raw(`'p90${suffix}'`) };
};
const DECIMALS: Record<DurationUnit, number> = { seconds: 1, hours: 2 };

/** The value at `fraction` (0.5 or 0.9) of a duration's values, as an SQL expression of the aggregating statement. */
export type PercentileOf = (fraction: 0.5 | 0.9) => Prisma.Sql;

/** PostgreSQL's percentile_cont over the group's values of `value`: one sort serves both fractions. */
const sortedPercentile = (value: Prisma.Sql): PercentileOf => {
  const both = Prisma.sql`percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY ${value})`;
  return (fraction) => Prisma.sql`(${both})[${Prisma.raw(fraction === 0.5 ? '1' : '2')}]`;
};

/**
 * Aggregate of a duration column `value` (already in `unit`; rows where it is null are ignored): its count,
 * mean, median and 90th percentile (continuous, as Postgres' percentile_cont, or as `percentileOf` finds them), rounded;
 * null means when empty.
 */
export function durationStats(value: Prisma.Sql, unit: DurationUnit, percentileOf = sortedPercentile(value)): Prisma.Sql {
  const key = keys(unit);
  const rounded = (expression: Prisma.Sql) => Prisma.sql`round((${expression})::numeric, ${Prisma.raw(String(DECIMALS[unit]))})::float8`;
  return Prisma.sql`json_build_object(
    'count', count(${value}),
    ${key.mean}, ${rounded(Prisma.sql`avg(${value})`)},
    ${key.median}, ${rounded(percentileOf(0.5))},
    ${key.p90}, ${rounded(percentileOf(0.9))})`;
}

/** The duration summary of no rows at all. */
export const emptyDurationStats = (unit: DurationUnit) => {
  const key = keys(unit);
  return Prisma.sql`json_build_object('count', 0, ${key.mean}, NULL, ${key.median}, NULL, ${key.p90}, NULL)`;
};
