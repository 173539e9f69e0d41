import { describe, expect, it } from 'vitest';
import { COVERAGE_VALUES, DEFAULT_WEIGHTS, FRESH_DAYS, SCORE_TERMS, STALE_DAYS, termsOf, weightSum, weightsOf } from './formula.ts';

describe('the technique score formula', () => {
  it('weights its four terms 0.5, 0.15, 0.15 and 0.2 by default, summing to 1', () => {
    expect(SCORE_TERMS).toEqual(['coverage', 'detection', 'validation_freshness', 'detection_rate']);
    expect(DEFAULT_WEIGHTS).toEqual({ coverage: 0.5, detection: 0.15, validation_freshness: 0.15, detection_rate: 0.2 });
    expect(weightSum(DEFAULT_WEIGHTS)).toBeCloseTo(1, 10);
  });

  it('values coverage as the spec does', () => {
    expect(COVERAGE_VALUES).toEqual({ validated: 1, partial: 0.5, in_progress: 0.25, not_covered: 0, not_evaluated: 0 });
    expect(FRESH_DAYS).toBeLessThan(STALE_DAYS);
  });

  it('replaces each stored weight that is missing or unusable by its default, and all-zero weights by the defaults', () => {
    expect(weightsOf({ coverage: 0.7, detection: 'high', validation_freshness: -1 })).toEqual({ ...DEFAULT_WEIGHTS, coverage: 0.7 });
    expect(weightsOf(null)).toEqual(DEFAULT_WEIGHTS);
    expect(weightsOf([0.1])).toEqual(DEFAULT_WEIGHTS);
    expect(weightsOf({ coverage: 0, detection: 0, validation_freshness: 0, detection_rate: 0 })).toEqual(DEFAULT_WEIGHTS);
  });

  it('breaks a score down into value, weight and points per term', () => {
    const row = {
      coverage: 1,
      detection: 0.5,
      validation_freshness: 0,
      detection_rate: 0.25,
      coverage_points: 50,
      detection_points: 7.5,
      validation_freshness_points: 0,
      detection_rate_points: 5,
    };
    expect(termsOf(row, DEFAULT_WEIGHTS)).toEqual([
      { name: 'coverage', value: 1, weight: 0.5, points: 50 },
      { name: 'detection', value: 0.5, weight: 0.15, points: 7.5 },
      { name: 'validation_freshness', value: 0, weight: 0.15, points: 0 },
      { name: 'detection_rate', value: 0.25, weight: 0.2, points: 5 },
    ]);
  });
});
