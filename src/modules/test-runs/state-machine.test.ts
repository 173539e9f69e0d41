import { describe, expect, it } from 'vitest';
import type { TestState, ValidationStatus } from '../../generated/prisma/enums.ts';
import { dualValidationOutcome, sidesOf, targetOf, testLifecycle, TRANSITIONS } from './state-machine.ts';

const { actionsFrom, transition: transitionFor, validTransitions } = testLifecycle;
import { STATES, TEST_STATES } from './states.ts';

describe('the transition table', () => {
  it('moves only between states of the state table, one row per action', () => {
    for (const row of TRANSITIONS) {
      expect(TEST_STATES).toContain(row.from);
      for (const to of row.to) expect(TEST_STATES).toContain(to);
    }
    expect(new Set(TRANSITIONS.map((row) => row.action)).size).toBe(TRANSITIONS.length);
    expect(new Set(TRANSITIONS.map((row) => row.mutation)).size).toBe(TRANSITIONS.length);
  });

  it('reaches every state from draft, and decided states only through a lead decision', () => {
    const reached = new Set<TestState>(['draft']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of TRANSITIONS.filter((candidate) => reached.has(candidate.from))) {
        for (const to of row.to.filter((target) => !reached.has(target))) {
          reached.add(to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...TEST_STATES].sort());
    for (const row of TRANSITIONS.filter((candidate) => candidate.to.some((to) => STATES[to].decided))) {
      expect(row.effects.validates, row.action).toBeDefined();
    }
  });

  it('leaves validated terminal and lets a rejected test be reopened only', () => {
    expect(actionsFrom('validated')).toEqual([]);
    expect(actionsFrom('rejected')).toEqual(['reopen']);
    expect(validTransitions('in_review')).toEqual(['rejected', 'validated']);
    expect(validTransitions('validated')).toEqual([]);
  });

  it('aims a rejection at rejected and every other decision at validated', () => {
    expect(targetOf(transitionFor('validate_red'), 'rejected')).toBe('rejected');
    expect(targetOf(transitionFor('validate_red'), 'approved')).toBe('validated');
    expect(targetOf(transitionFor('reject'))).toBe('rejected');
    expect(targetOf(transitionFor('submit_blue'))).toBe('in_review');
  });
});

describe('the dual validation rule', () => {
  const cases: [ValidationStatus | null, ValidationStatus | null, TestState][] = [
    [null, null, 'in_review'],
    ['approved', null, 'in_review'],
    [null, 'approved', 'in_review'],
    ['approved', 'approved', 'validated'],
    ['rejected', null, 'rejected'],
    [null, 'rejected', 'rejected'],
    ['approved', 'rejected', 'rejected'],
    ['rejected', 'approved', 'rejected'],
  ];
  it.each(cases)('red %s, blue %s → %s', (red, blue, outcome) => {
    expect(dualValidationOutcome(red, blue)).toBe(outcome);
  });

  it('lets each lead decide for their own side and an admin for both', () => {
    expect(sidesOf('red_lead')).toEqual(['red']);
    expect(sidesOf('blue_lead')).toEqual(['blue']);
    expect(sidesOf('admin')).toEqual(['red', 'blue']);
    expect(sidesOf('red_tech')).toEqual([]);
  });
});
