import { describe, expect, it } from 'vitest';
import { AttackPathExecutionStatus } from '../../generated/prisma/enums.ts';
import { RECORDING_STATES } from './executions.ts';
import { TEST_CREATING_STATES } from './create-tests.ts';
import { EXECUTION_STATES, EXECUTION_TRANSITIONS, executionLifecycle } from './state-machine.ts';

const {
  stateNames: EXECUTION_STATUSES,
  actionsFrom: executionActionsFrom,
  statesWhere: statusesWhere,
  validTransitions: validExecutionTransitions,
} = executionLifecycle;

describe('the execution state and transition tables', () => {
  it('have one row per status of the database enum, in lifecycle order', () => {
    expect([...EXECUTION_STATUSES].sort()).toEqual(Object.values(AttackPathExecutionStatus).sort());
    expect(EXECUTION_STATUSES).toEqual(['pending', 'running', 'completed', 'aborted']);
  });

  it('give the valid transitions and actions of each status', () => {
    expect(Object.fromEntries(EXECUTION_STATUSES.map((status) => [status, validExecutionTransitions(status)]))).toEqual({
      pending: ['running', 'aborted'],
      running: ['completed', 'aborted'],
      completed: [],
      aborted: [],
    });
    expect(Object.fromEntries(EXECUTION_STATUSES.map((status) => [status, executionActionsFrom(status)]))).toEqual({
      pending: ['start', 'abort'],
      running: ['complete', 'abort'],
      completed: [],
      aborted: [],
    });
  });

  it('admit every role but viewer to start and complete, and only leads and admins to abort', () => {
    const roles = Object.fromEntries(EXECUTION_TRANSITIONS.map((row) => [row.action, [...row.roles].sort()]));
    expect(roles).toEqual({
      start: ['admin', 'blue_lead', 'blue_tech', 'red_lead', 'red_tech'],
      complete: ['admin', 'blue_lead', 'blue_tech', 'red_lead', 'red_tech'],
      abort: ['admin', 'blue_lead', 'red_lead'],
    });
  });

  it('record outcomes only while running, report a summary once completed, create tests unless aborted', () => {
    expect(RECORDING_STATES).toEqual(['running']);
    expect(statusesWhere((rule) => rule.reportsSummary)).toEqual(['completed']);
    expect(TEST_CREATING_STATES).toEqual(['pending', 'running', 'completed']);
    expect(Object.keys(EXECUTION_STATES)).toEqual(EXECUTION_STATUSES);
  });
});
