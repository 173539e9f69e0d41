import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';
import { isUuid } from '../validation.ts';

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** `Date` alone accepts "1" (2001) or "2024-02-30" (March 1st): insist on an ISO 8601 date that exists. */
function parseDate(value: unknown): Date {
  const match = typeof value === 'string' ? ISO_8601.exec(value.trim()) : null;
  const date = match ? new Date(value as string) : null;
  const [year, month, day] = (match ?? []).slice(1, 4).map(Number);
  const calendar = match ? new Date(Date.UTC(year, month - 1, day)) : null;
  if (!date || Number.isNaN(date.getTime()) || calendar?.getUTCDate() !== day || calendar.getUTCMonth() !== month - 1) {
    throw new GraphQLError('must be an ISO 8601 date-time');
  }
  return date;
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 timestamp.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : parseDate(value).toISOString()),
  parseValue: parseDate,
  parseLiteral: (ast) => parseDate(ast.kind === Kind.STRING ? ast.value : null),
});

export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

function parseUuid(value: unknown): string {
  if (typeof value !== 'string' || !isUuid(value)) throw new GraphQLError('must be a UUID');
  return value.toLowerCase();
}

/** Ids of stored records: refused before any query unless shaped 8-4-4-4-12 hex, as PostgreSQL's uuid type wants. */
export const UuidScalar = new GraphQLScalarType<string, string>({
  name: 'UUID',
  description: 'A record id: 32 hexadecimal digits in groups of 8-4-4-4-12.',
  serialize: (value) => String(value),
  parseValue: parseUuid,
  parseLiteral: (ast) => parseUuid(ast.kind === Kind.STRING ? ast.value : null),
});
