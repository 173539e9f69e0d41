import { Roles, type Role } from '../../auth/roles.ts';
import type { AttackPathExecutionStatus } from '../../generated/prisma/enums.ts';
import { defineLifecycle, type TransitionRow } from '../../lifecycle/kit.ts';

export type ExecutionAction = 'start' | 'complete' | 'abort';

/** Every rule that depends on the status an execution is in. */
export interface ExecutionStateRule {
  /** Step outcomes may be recorded. */
  recordsOutcomes: boolean;
  /** Tests may be created from the steps' templates. */
  createsTests: boolean;
  /** The execution reports its summary (first detection, time to detect, unnoticed steps). */
  reportsSummary: boolean;
}

/** The one table of execution statuses, in lifecycle order, beside the transition table below. */
export const EXECUTION_STATES: Readonly<Record<AttackPathExecutionStatus, ExecutionStateRule>> = {
  pending: { recordsOutcomes: false, createsTests: true, reportsSummary: false },
  running: { recordsOutcomes: true, createsTests: true, reportsSummary: false },
  completed: { recordsOutcomes: false, createsTests: true, reportsSummary: true },
  aborted: { recordsOutcomes: false, createsTests: false, reportsSummary: false },
};

export interface ExecutionTransition extends TransitionRow<AttackPathExecutionStatus, ExecutionAction> {
  action: ExecutionAction;
  /** REST: POST /executions/{id}/<path>. */
  path: string;
  /** GraphQL mutation name. */
  mutation: string;
  from: readonly AttackPathExecutionStatus[];
  to: AttackPathExecutionStatus;
  /** The spec's "Who" column. */
  roles: readonly Role[];
  /** Audit action name. */
  audit: string;
  /** Timestamp column set by the transition. */
  stamp: 'startedAt' | 'completedAt' | 'abortedAt';
  summary: string;
}

/** The one execution transition table: routes, mutations, errors and docs all read it. */
export const EXECUTION_TRANSITIONS: readonly ExecutionTransition[] = [
  {
    action: 'start',
    path: 'start',
    mutation: 'startAttackPathExecution',
    from: ['pending'],
    to: 'running',
    roles: Roles.allButViewer,
    audit: 'start_attack_path_execution',
    stamp: 'startedAt',
    summary: 'Begin: pending → running; sets started_at (body started_at: an earlier moment, default now)',
  },
  {
    action: 'complete',
    path: 'complete',
    mutation: 'completeAttackPathExecution',
    from: ['running'],
    to: 'completed',
    roles: Roles.allButViewer,
    audit: 'complete_attack_path_execution',
    stamp: 'completedAt',
    summary: 'Complete: running → completed; sets completed_at; the execution then reports its summary',
  },
  {
    action: 'abort',
    path: 'abort',
    mutation: 'abortAttackPathExecution',
    from: ['pending', 'running'],
    to: 'aborted',
    roles: Roles.leads,
    audit: 'abort_attack_path_execution',
    stamp: 'abortedAt',
    summary: 'Abort: pending or running → aborted; sets aborted_at (optional body reason)',
  },
];

/** The execution lifecycle: the two tables above and what derives from them. */
export const executionLifecycle = defineLifecycle({
  noun: 'attack path execution',
  inState: (status: AttackPathExecutionStatus) => `the execution is ${status}`,
  states: EXECUTION_STATES,
  transitions: EXECUTION_TRANSITIONS,
});
