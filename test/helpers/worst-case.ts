import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { WORST_CASE } from '../../src/graphql/cost.ts';
import { operationCost, type GraphqlLimits } from '../../src/graphql/limits/rules.ts';

/** Values for required arguments, by root field (e.g. the id of a seeded playbook); other required arguments skip a field. */
export type KnownArguments = Record<string, Record<string, unknown>>;

export interface WorstCase {
  root: string;
  document: string;
  cost: number;
}

const literal = (value: unknown) => JSON.stringify(value);

/** The page size a paged or capped field admits at most, read from its cost function in the worst case. */
function maxItems(field: GraphQLField<unknown, unknown>): number | null {
  const complexity = field.extensions?.complexity as unknown;
  if (typeof complexity !== 'function' || !field.args.some((arg) => arg.name === 'limit')) return null;
  const value = complexity({}, { [WORST_CASE]: true }, field) as { multiplier?: number };
  return value.multiplier ?? null;
}

function argumentsOf(field: GraphQLField<unknown, unknown>, known: Record<string, unknown> = {}): string | null {
  const parts: string[] = [];
  for (const arg of field.args) {
    if (arg.name in known) parts.push(`${arg.name}: ${literal(known[arg.name])}`);
    else if (arg.name === 'limit' && maxItems(field)) parts.push(`limit: ${maxItems(field)}`);
    else if (isNonNullType(arg.type) && arg.defaultValue === undefined) return null;
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

/**
 * The widest selection of `type` down to `levels` nested objects: every leaf and every object field without
 * required arguments, lists at their largest page; a type appears at most twice on a path (technique → tests →
 * technique → tests is the costly pattern).
 */
function selectionOf(type: GraphQLObjectType, levels: number, path: string[]): string {
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    const args = argumentsOf(field);
    if (args === null) continue;
    if (isLeafType(named)) parts.push(`${field.name}${args}`);
    else if (isObjectType(named) && levels > 0 && path.filter((name) => name === named.name).length < 2) {
      parts.push(`${field.name}${args} { ${selectionOf(named, levels - 1, [...path, named.name])} }`);
    }
  }
  return parts.length ? parts.join(' ') : '__typename';
}

function fits(schema: GraphQLSchema, document: string, limits: GraphqlLimits): number | null {
  try {
    parse(document, { maxTokens: limits.maxTokens });
  } catch {
    return null;
  }
  const cost = operationCost(schema, parse(document));
  return cost !== null && cost <= limits.maxCost ? cost : null;
}

/** The deepest widest selection of a root field within the cost and token limits, with its cost; null when none fits. */
function widestFitting(
  schema: GraphQLSchema,
  limits: GraphqlLimits,
  field: GraphQLField<unknown, unknown>,
  known: Record<string, unknown> = {},
  { operation = '', depth = 4 } = {},
): { one: string; cost: number } | null {
  const args = argumentsOf(field, known);
  const named = getNamedType(field.type);
  if (args === null || !isObjectType(named)) return null;
  for (let levels = Math.min(depth, limits.maxDepth - 2); levels >= 0; levels -= 1) {
    const one = `${field.name}${args} { ${selectionOf(named, levels, [named.name])} }`;
    const cost = fits(schema, `${operation} { ${one} }`, limits);
    if (cost !== null) return { one, cost };
  }
  return null;
}

/**
 * For every root query field a caller can name (its required arguments known), the most expensive document the
 * limits admit: the deepest widest selection within the cost and token limits, then as many aliases of it as the
 * cost, alias and token limits allow. Most expensive first.
 */
export function worstCaseQueries(schema: GraphQLSchema, limits: GraphqlLimits, known: KnownArguments = {}): WorstCase[] {
  const cases: WorstCase[] = [];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const widest = widestFitting(schema, limits, field, known[field.name]);
    if (!widest) continue;
    const copies = Math.max(1, Math.min(limits.maxAliases, Math.floor(limits.maxCost / Math.max(widest.cost, 1))));
    for (let count = copies; count >= 1; count = Math.floor(count / 2)) {
      const document = `{ ${Array.from({ length: count }, (_, index) => `a${index}: ${widest.one}`).join(' ')} }`;
      const cost = fits(schema, document, limits);
      if (cost === null) continue;
      cases.push({ root: field.name, document, cost });
      break;
    }
  }
  return cases.sort((a, b) => b.cost - a.cost);
}

/** The most expensive subscription document the limits admit on the subscription field `name`. */
export function worstCaseSubscription(
  schema: GraphQLSchema,
  limits: GraphqlLimits,
  name: string,
  known: Record<string, unknown> = {},
): WorstCase {
  const field = schema.getSubscriptionType()!.getFields()[name];
  const widest = widestFitting(schema, limits, field, known, { operation: 'subscription' });
  if (!widest) throw new Error(`no document on ${name} fits the limits`);
  return { root: name, document: `subscription { ${widest.one} }`, cost: widest.cost };
}
