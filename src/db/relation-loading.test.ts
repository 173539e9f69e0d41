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
    expect(relationLoadStrategyOf('Test', 'findUnique', { include: { technique: true, evidences: { take: 500 } } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'findMany', { select: { technique: { select: { tests: { take: 200 } } } } })).toBe('query');
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: true } })).toBe('query');
  });

  it('applies to writes that answer records; leaves counts, relations not asked for and a chosen strategy alone', () => {
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { _count: { select: { tests: true } } } })).toBe('join');
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: false } })).toBe('join');
    expect(relationLoadStrategyOf('Test', 'update', { include: { evidences: true } })).toBe('query');
    expect(relationLoadStrategyOf('Test', 'updateMany', { where: {} })).toBeUndefined();
    expect(relationLoadStrategyOf('Test', 'count', {})).toBeUndefined();
    expect(relationLoadStrategyOf('Technique', 'findMany', { include: { tests: true }, relationLoadStrategy: 'join' })).toBe('join');
  });
});
