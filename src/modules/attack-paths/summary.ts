import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Db } from '../../db/client.ts';
import type { AttackPathExecutionStep } from '../../generated/prisma/client.ts';
import type { AttackStepOutcome } from '../../generated/prisma/enums.ts';
import type { Context } from '../../graphql/context.ts';

/** Outcomes under which a step went through without the defence noticing it. */
export const UNNOTICED_OUTCOMES: readonly AttackStepOutcome[] = ['succeeded', 'not_detected'];

export type OutcomeCounts = Record<AttackStepOutcome | 'unrecorded', number>;

/** What a completed execution reports. */
export interface ExecutionSummary {
  totalSteps: number;
  counts: OutcomeCounts;
  /** The detected step that occurred first (equal times: the earlier position). */
  firstDetectedStep: AttackPathExecutionStep | null;
  firstBlockedStep: AttackPathExecutionStep | null;
  /** Seconds from the start to the first detected step's occurred_at; null without a detection. */
  timeToDetectSeconds: number | null;
  /** Steps whose outcome is succeeded or not_detected, in step order. */
  unnoticedSteps: AttackPathExecutionStep[];
}

interface SummaryRow {
  execution_id: string;
  total: number;
  succeeded: number;
  blocked: number;
  detected: number;
  not_detected: number;
  skipped: number;
  unrecorded: number;
  first_detected: string | null;
  first_blocked: string | null;
  time_to_detect: number | null;
  unnoticed: string[];
}

/** The summaries of these executions: the figures in one grouped query, the steps they name in a second. */
export async function executionSummaries(db: Db, executionIds: readonly string[]): Promise<Map<string, ExecutionSummary>> {
  if (!executionIds.length) return new Map();
  const rows = await db.$queryRaw<SummaryRow[]>`
    SELECT s.execution_id::text AS execution_id,
           count(*)::int AS total,
           (count(*) FILTER (WHERE s.outcome = 'succeeded'))::int AS succeeded,
           (count(*) FILTER (WHERE s.outcome = 'blocked'))::int AS blocked,
           (count(*) FILTER (WHERE s.outcome = 'detected'))::int AS detected,
           (count(*) FILTER (WHERE s.outcome = 'not_detected'))::int AS not_detected,
           (count(*) FILTER (WHERE s.outcome = 'skipped'))::int AS skipped,
           (count(*) FILTER (WHERE s.outcome IS NULL))::int AS unrecorded,
           (array_agg(s.id::text ORDER BY s.occurred_at, s.position) FILTER (WHERE s.outcome = 'detected'))[1] AS first_detected,
           (array_agg(s.id::text ORDER BY s.occurred_at, s.position) FILTER (WHERE s.outcome = 'blocked'))[1] AS first_blocked,
           extract(epoch FROM min(s.occurred_at) FILTER (WHERE s.outcome = 'detected') - e.started_at)::float8 AS time_to_detect,
           coalesce(array_agg(s.id::text ORDER BY s.position) FILTER (WHERE s.outcome::text = ANY(${[...UNNOTICED_OUTCOMES]}::text[])), '{}') AS unnoticed
      FROM attack_path_execution_steps s
      JOIN attack_path_executions e ON e.id = s.execution_id
     WHERE s.execution_id = ANY(${[...executionIds]}::uuid[])
     GROUP BY s.execution_id, e.started_at`;
  const named = rows.flatMap((row) => [row.first_detected, row.first_blocked, ...row.unnoticed].filter((id): id is string => !!id));
  const steps = named.length ? await db.attackPathExecutionStep.findMany({ where: { id: { in: [...new Set(named)] } } }) : [];
  const stepById = new Map(steps.map((step) => [step.id, step]));
  const step = (id: string | null) => (id ? (stepById.get(id) ?? null) : null);
  return new Map(
    rows.map((row) => [
      row.execution_id,
      {
        totalSteps: row.total,
        counts: {
          succeeded: row.succeeded,
          blocked: row.blocked,
          detected: row.detected,
          not_detected: row.not_detected,
          skipped: row.skipped,
          unrecorded: row.unrecorded,
        },
        firstDetectedStep: step(row.first_detected),
        firstBlockedStep: step(row.first_blocked),
        timeToDetectSeconds: row.time_to_detect === null ? null : Math.round(row.time_to_detect * 1000) / 1000,
        unnoticedSteps: row.unnoticed.map(step).filter((found): found is AttackPathExecutionStep => found !== null),
      },
    ]),
  );
}

/** Per request: the summaries of every execution a response shows cost two queries. */
export const summaryLoader = createContextCache(
  (context: Context) =>
    new DataLoader<string, ExecutionSummary | null>(async (ids) => {
      const summaries = await executionSummaries(context.services.prisma, ids);
      return ids.map((id) => summaries.get(id) ?? null);
    }),
);
