import { GraphQLError, Kind, type ASTVisitor, type ValidationContext } from 'graphql';
import { ValidationError } from '../errors.ts';

/** How deeply JSON input (REST bodies, GraphQL variables) may nest: far beyond any input type of the schema. */
export const MAX_INPUT_DEPTH = 32;

// NUL, which PostgreSQL text cannot hold, and UTF-16 halves without their partner, which no encoding can.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this refuses
const FORBIDDEN_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface InputProblem {
  /** Where it is: object keys and array indexes from the root. */
  path: (string | number)[];
  reason: string;
}

/** Why a text cannot be stored, or null. */
export function textProblem(text: string): string | null {
  const match = FORBIDDEN_TEXT.exec(text);
  if (!match) return null;
  return match[0] === '\u0000' ? 'must not contain NUL characters' : 'must not contain unpaired UTF-16 surrogates';
}

/**
 * The first problem of a parsed JSON value: nesting deeper than `maxDepth`, or a key or string that cannot be
 * stored as text. Walks with an explicit stack, so hostile nesting cannot exhaust the call stack.
 */
export function inspectInput(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const reason = textProblem(current);
      if (reason) return { path, reason };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= maxDepth) return { path, reason: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) stack.push({ value: item, path: [...path, index] });
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      const reason = textProblem(key);
      if (reason) return { path, reason: `keys ${reason}` };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

/** Throws the 400 for the first problem of `value`; `field` names the path for the client. */
export function assertCleanInput(value: unknown, field: (path: (string | number)[]) => string | null): void {
  const problem = inspectInput(value);
  if (problem) throw new ValidationError(field(problem.path), problem.reason);
}

/** GraphQL variables: the path in GraphQL's own names, e.g. `input.name`. */
export function assertCleanVariables(variables: Record<string, unknown> | undefined | null): void {
  if (variables) assertCleanInput(variables, (path) => (path.length ? path.join('.') : null));
}

/** An Apollo Server plugin applying the rule to every operation's variables (POST and GET alike), as a 400. */
export const inputGuardPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request }: { request: { variables?: Record<string, unknown> } }) {
        const problem = inspectInput(request.variables ?? {});
        if (problem) {
          const field = problem.path.length ? problem.path.join('.') : null;
          throw new GraphQLError(`${field ? `${field}: ` : ''}${problem.reason}`, {
            extensions: { code: 'VALIDATION_ERROR', status: 400, field, http: { status: 400 } },
          });
        }
      },
    };
  },
};

/** graphql-ws: the errors refusing a subscription whose variables break the rule, or null. */
export function subscriptionInputProblem(variables: Record<string, unknown> | null | undefined): GraphQLError[] | null {
  const problem = inspectInput(variables ?? {});
  if (!problem) return null;
  const field = problem.path.length ? problem.path.join('.') : null;
  return [
    new GraphQLError(`${field ? `${field}: ` : ''}${problem.reason}`, { extensions: { code: 'VALIDATION_ERROR', status: 400, field } }),
  ];
}

/** The same rule for string literals written into a GraphQL document. */
export function cleanLiteralsRule(context: ValidationContext): ASTVisitor {
  return {
    [Kind.STRING](node) {
      const reason = textProblem(node.value);
      if (reason) {
        context.reportError(new GraphQLError(`String literal ${reason}`, { nodes: [node], extensions: { code: 'VALIDATION_ERROR' } }));
      }
    },
  };
}
