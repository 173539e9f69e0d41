import { parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { tokenLimitErrorFrom } from './errors.ts';
import { limitRules, operationCost, type GraphqlLimits } from './rules.ts';

export interface DocumentMeasure {
  /** Cost for any variable values: every page at its maximum size. */
  worstCaseCost: number;
  /** Why the document exceeds the limits; empty when it is within them. */
  problems: string[];
}

/** Measures a fixed document (a REST route's) against the limits, for whatever variables it will be given. */
export function measureDocument(schema: GraphQLSchema, source: string, limits: GraphqlLimits): DocumentMeasure {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: limits.maxTokens });
  } catch (error) {
    const tooLarge = tokenLimitErrorFrom(error);
    if (tooLarge) return { worstCaseCost: Number.NaN, problems: [tooLarge.message] };
    throw error;
  }
  const problems = validate(schema, document, limitRules(limits)).map((problem) => problem.message);
  const worstCaseCost = operationCost(schema, document, { worstCase: true }) ?? Number.NaN;
  if (!(worstCaseCost <= limits.maxCost)) problems.push(`its worst-case cost ${worstCaseCost} exceeds the limit of ${limits.maxCost}`);
  return { worstCaseCost, problems };
}
