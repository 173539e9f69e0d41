import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ValidationError } from './errors.ts';
import { parseInput } from './validation.ts';

const reasonOf = (schema: z.ZodType, input: unknown): string => {
  try {
    parseInput(schema, input);
  } catch (error) {
    return `${(error as ValidationError).field}: ${(error as ValidationError).reason}`;
  }
  throw new Error('no problem found');
};

describe('checks without a message of their own read as plain words', () => {
  it.each([
    [z.object({ rootCause: z.string() }), {}, 'rootCause: is required'],
    [z.object({ limit: z.number().int() }), { limit: 1.5 }, 'limit: must be an integer'],
    [z.object({ limit: z.number() }), { limit: 'ten' }, 'limit: must be a number'],
    [z.object({ limit: z.number().max(200) }), { limit: 201 }, 'limit: must be at most 200'],
    [z.object({ name: z.string().min(3) }), { name: 'ab' }, 'name: must be at least 3 characters'],
    [z.object({ name: z.string().min(1) }), { name: '' }, 'name: must not be empty'],
    [z.object({ tags: z.array(z.string()).max(2) }), { tags: ['a', 'b', 'c'] }, 'tags: must hold at most 2 items'],
    [z.object({ kind: z.enum(['manual', 'daily']) }), { kind: 'weekly' }, 'kind: must be one of manual, daily'],
    [z.object({ id: z.guid() }), { id: 'x' }, 'id: must be a UUID'],
    [z.object({ mail: z.email() }), { mail: 'x' }, 'mail: must be an e-mail address'],
    [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, 'null: has unknown field: b'],
  ])('%#: %s', (schema, input, expected) => {
    expect(reasonOf(schema, input)).toBe(expected);
  });

  it('a message a check states stays its own', () => {
    expect(reasonOf(z.object({ offset: z.number().min(0, 'must be 0 or more') }), { offset: -1 })).toBe('offset: must be 0 or more');
  });
});
