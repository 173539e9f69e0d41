import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TestState } from '../../generated/prisma/enums.ts';
import { EDIT_RULES, EVALUABLE_STATES, RETEST_FROM, STATES, TEAM_STATES, TEST_STATES, TIMED_STATES, UPLOAD_STATES } from './states.ts';

const sorted = (states: readonly string[]) => [...states].sort();

describe('the test state table', () => {
  it('has one row per state of the database enum, in lifecycle order', () => {
    expect(sorted(TEST_STATES)).toEqual(sorted(Object.values(TestState)));
    expect(TEST_STATES).toEqual(['draft', 'red_executing', 'blue_evaluating', 'in_review', 'rejected', 'validated']);
  });

  it('derives the spec rules: timer, retests, edits, evidence, evaluations, team work', () => {
    expect(TIMED_STATES).toEqual(['red_executing', 'blue_evaluating']);
    // The decided states; technique_test_stats counts exactly these two (the reports' open tests are the rest).
    expect(RETEST_FROM).toEqual(['rejected', 'validated']);
    expect(EDIT_RULES.general.states).toEqual(['draft', 'rejected']);
    expect(EDIT_RULES.red.states).toEqual(['draft', 'red_executing']);
    expect(EDIT_RULES.blue.states).toEqual(['blue_evaluating']);
    expect(EDIT_RULES.remediation.states).toEqual(['in_review', 'rejected', 'validated']);
    expect(EDIT_RULES.classification.states).toEqual(TEST_STATES);
    expect(UPLOAD_STATES).toEqual({
      red: ['red_executing', 'blue_evaluating', 'in_review', 'rejected'],
      blue: ['blue_evaluating', 'in_review', 'rejected'],
    });
    expect(EVALUABLE_STATES).toEqual(['blue_evaluating', 'in_review', 'rejected', 'validated']);
    expect(TEAM_STATES).toEqual({
      redPending: ['draft', 'red_executing'],
      redCompleted: ['blue_evaluating', 'in_review', 'rejected', 'validated'],
      bluePending: ['blue_evaluating'],
      blueCompleted: ['in_review', 'rejected', 'validated'],
    });
  });

  it('keeps timing and turns consistent: the timer runs exactly while a team has the turn and the test is under way', () => {
    for (const state of TEST_STATES) {
      const rule = STATES[state];
      if (rule.timed) expect(rule.turn === 'red' || rule.turn === 'blue', state).toBe(true);
      expect(rule.decided, state).toBe(rule.turn === null);
    }
  });
});

/**
 * The outcome triggers behind MTTD, MTTR and efficacy are SQL, which cannot read the table: their state lists
 * are held to it here, so adding a state fails this test until a migration redefines test_outcome().
 */
describe('the SQL outcome function counts the same states as the table', () => {
  const migrations = new URL('../../../prisma/migrations/', import.meta.url);
  const latest = readdirSync(migrations)
    .filter((name) => /^\d/.test(name))
    .sort()
    .map((name) => readFileSync(new URL(`${name}/migration.sql`, migrations), 'utf8'))
    .filter((sql) => sql.includes('FUNCTION "test_outcome"'))
    .at(-1)!;
  const definition = latest.slice(
    latest.indexOf('FUNCTION "test_outcome"'),
    latest.indexOf('$$;', latest.indexOf('FUNCTION "test_outcome"')),
  );
  const listAfter = (prefix: string) => {
    const match = new RegExp(`${prefix.replace(/[()]/g, '\\$&')} \\(([^)]*)\\)`).exec(definition);
    return sorted((match?.[1] ?? '').split(',').map((item) => item.trim().replace(/'/g, '')));
  };
  const without = (states: readonly string[], state: string) => sorted(states.filter((candidate) => candidate !== state));

  it('an outcome row exists for every state where detection rules may be evaluated', () => {
    expect(listAfter('WHERE t.state IN')).toEqual(sorted(EVALUABLE_STATES));
  });

  it('a gap is known once the blue side is done; a standing result or execution excludes rejected tests', () => {
    expect(listAfter('t.state NOT IN')).toEqual(sorted(TEAM_STATES.blueCompleted));
    expect(listAfter('(SELECT t.state IN')).toEqual(without(TEAM_STATES.blueCompleted, 'rejected'));
    expect(listAfter('AS is_result,\n                 t.state IN')).toEqual(without(TEAM_STATES.redCompleted, 'rejected'));
  });
});
