import { describe, expect, it } from 'vitest';
import { relationLoadStrategyOf } from './relation-loading.ts';

describe('how a read loads its relations', () => {
  it('loads to-one relations, at any depth, in the record statement', () => {
    expect(relationLoadStrategyOf('Test', 'findMany', { include: { technique: true } })).toBe('join');
    expect(
      relationLoadStrategyOf('Test', 'findUnique', { where: {}, select: { id: true, technique: { select: { riskProfile: true } } } }),
    ).toBe('join');
    expect(relationLoadStrategyOf('Test', 'findMany', { where: {} })).toBe('join');
  });

  it('loads a to-many relation, or anything under one, in statements of its own', () => {
    expect(relationLoadStrategyOf('Technique', 'findUnique', { include: { tests: { take: 50 } } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findMany', { include: { technique: true, evidences: { take: 500 } } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findMany', { select: { technique: { select: { tests: { take: 200 } } } } })).toBe('query');
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: true } })).toBe('query');
  });

  it("joins a test's small lists too when it reads that one test, as long as they load no relation of their own", () => {
    const detail = { technique: true, evidences: { take: 500 }, detectionEvaluations: { take: 500 }, trackerLinks: { take: 1 } };
    expect(relationLoadStrategyOf('Test', 'findUnique', { include: detail })).toBe('join');
    expect(relationLoadStrategyOf('Test', 'update', { include: detail })).toBe('join');
    expect(
      relationLoadStrategyOf('Test', 'findUnique', { include: { ...detail, detectionEvaluations: { include: { rule: true } } } }),
    ).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findUnique', { include: { ...detail, events: true } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findUnique', { include: { ...detail, evidences: true } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findUnique', { include: { ...detail, detectionEvaluations: { take: 501 } } })).toBe('query');
    expect(relationLoadStrategyOf('Campaign', 'findUnique', { include: { tests: { include: { evidences: true } } } })).toBe('query');
  });

  it('applies to writes that answer records; leaves counts, relations not asked for and a chosen strategy alone', () => {
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { _count: { select: { tests: true } } } })).toBe('join');
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: false } })).toBe('join');
    expect(relationLoadStrategyOf('Test', 'update', { include: { events: true } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'updateMany', { where: {} })).toBeUndefined();
    expect(relationLoadStrategyOf('Test', 'count', {})).toBeUndefined();
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: true }, relationLoadStrategy: 'join' })).toBe('join');
  });
});
