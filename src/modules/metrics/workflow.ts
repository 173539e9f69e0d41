import { Prisma } from '../../generated/prisma/client.ts';
import type { TestState } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { stateCountColumns, type StateCounts } from '../test-runs/state-counts.ts';
import { TEAM_STATES } from '../test-runs/states.ts';
import { percentage } from './sql.ts';

/** Tests by state (every state, zeros included) and in total. */
export type TestPipeline = StateCounts & { total: number };

export interface TeamActivity {
  redCompleted: number;
  redPending: number;
  blueCompleted: number;
  bluePending: number;
}

export interface LeadValidation {
  approved: number;
  rejected: number;
  decided: number;
  approvalRate: number | null;
  rejectionRate: number | null;
}

export interface ValidationRates {
  redLead: LeadValidation;
  blueLead: LeadValidation;
}

export interface RecentTest {
  id: string;
  name: string;
  state: TestState;
  techniqueId: string;
  ttpId: string;
  techniqueName: string;
  updatedAt: Date;
}

/** How many tests the recent-tests list shows (the spec's limit). */
export const RECENT_TESTS = 10;

const inStates = (states: readonly TestState[]) =>
  Prisma.sql`state IN (${Prisma.join(states.map((state) => Prisma.sql`${state}::"TestState"`))})`;

export async function testPipeline(services: Services): Promise<TestPipeline> {
  const [row] = await services.prisma.$queryRaw<TestPipeline[]>`
    SELECT count(*)::int AS total, ${stateCountColumns()}
      FROM tests`;
  return row;
}

/** Red and blue work done and still to do, from the tests' current states (see TEAM_STATES). */
export async function teamActivity(services: Services): Promise<TeamActivity> {
  const [row] = await services.prisma.$queryRaw<TeamActivity[]>`
    SELECT (count(*) FILTER (WHERE ${inStates(TEAM_STATES.redCompleted)}))::int AS "redCompleted",
           (count(*) FILTER (WHERE ${inStates(TEAM_STATES.redPending)}))::int AS "redPending",
           (count(*) FILTER (WHERE ${inStates(TEAM_STATES.blueCompleted)}))::int AS "blueCompleted",
           (count(*) FILTER (WHERE ${inStates(TEAM_STATES.bluePending)}))::int AS "bluePending"
      FROM tests`;
  return row;
}

const leadValidation = (approved: Prisma.Sql, rejected: Prisma.Sql) => {
  const decided = Prisma.sql`(${approved} + ${rejected})`;
  return Prisma.sql`json_build_object(
    'approved', ${approved}, 'rejected', ${rejected}, 'decided', ${decided},
    'approvalRate', ${percentage(approved, decided)}, 'rejectionRate', ${percentage(rejected, decided)})`;
};

/**
 * Approval and rejection rates of each lead side over the decisions standing on tests now, summed from the
 * per-technique figures the database keeps (`technique_test_stats`) rather than counted over every test.
 */
export async function validationRates(services: Services): Promise<ValidationRates> {
  const total = (column: Prisma.Sql) => Prisma.sql`COALESCE(sum(${column}), 0)::int`;
  const [row] = await services.prisma.$queryRaw<ValidationRates[]>`
    SELECT ${leadValidation(total(Prisma.sql`red_approved`), total(Prisma.sql`red_rejected`))} AS "redLead",
           ${leadValidation(total(Prisma.sql`blue_approved`), total(Prisma.sql`blue_rejected`))} AS "blueLead"
      FROM technique_test_stats`;
  return row;
}

/** The most recently updated tests with their technique, newest first. */
export function recentTests(services: Services): Promise<RecentTest[]> {
  return services.prisma.$queryRaw<RecentTest[]>`
    SELECT t.id, t.name, t.state, t.technique_id AS "techniqueId", q.ttp_id AS "ttpId", q.name AS "techniqueName",
           t.updated_at AS "updatedAt"
      FROM (SELECT * FROM tests ORDER BY updated_at DESC, id DESC LIMIT ${RECENT_TESTS}) t
      JOIN techniques q ON q.id = t.technique_id
     ORDER BY t.updated_at DESC, t.id DESC`;
}
