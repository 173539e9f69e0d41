import { z } from 'zod';
import { NotFoundError, ValidationError } from './errors.ts';
import { plainWords } from './zod-words.ts';

// Problems of checks that state no message of their own read as plain words, never zod's.
z.config({ customError: plainWords });

/** Parses `input` with `schema`; the first problem becomes a 400 naming the field by its GraphQL (camelCase) path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const field = issue.path.length ? issue.path.map(String).join('.') : null;
  throw new ValidationError(field, issue.message);
}

/** Offset/limit with the given default and maximum page size. */
export function page(defaultLimit: number, maxLimit: number) {
  return z.object({
    offset: z.number().int().min(0, 'must be 0 or more').default(0),
    limit: z.number().int().min(1, 'must be at least 1').max(maxLimit, `must be at most ${maxLimit}`).default(defaultLimit),
  });
}

/** Any 8-4-4-4-12 hex id, as PostgreSQL's uuid type accepts (`z.uuid()` would insist on a version). */
export const uuid = z.guid('must be a UUID');
export const isUuid = (value: string): boolean => uuid.safeParse(value).success;

/** An id that is not a UUID names nothing: 404 like any other unknown id, before it can reach SQL. */
export function assertUuid(entity: string, id: string): void {
  if (!isUuid(id)) throw new NotFoundError(entity, id);
}

export const trimmed = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
