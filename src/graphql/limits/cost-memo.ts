import { Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema, type ValueNode } from 'graphql';
import { defaultFieldCost, pageLimitsOf } from '../cost.ts';
import { operationCost, type CostInput } from './rules.ts';

/** Costs kept per document: one per operation name and value of the variables the cost reads. */
const COSTS_PER_DOCUMENT = 256;
/** A longer key (large values in the variables the cost reads) is costed afresh and not kept: bounded memory. */
const MAX_KEY_LENGTH = 256;

interface DocumentCosts {
  /**
   * The variables whose values can change the cost: the page argument of a paged field, every argument of a field
   * with another declared cost function, the arguments of directives.
   */
  costVariables: string[];
  costs: Map<string, number>;
}

function variablesIn(value: ValueNode, into: Set<string>): void {
  if (value.kind === Kind.VARIABLE) into.add(value.name.value);
  else if (value.kind === Kind.LIST) for (const item of value.values) variablesIn(item, into);
  else if (value.kind === Kind.OBJECT) for (const field of value.fields) variablesIn(field.value, into);
}

/** The variables a document's cost depends on: every other variable (ids, filters, inputs) leaves it unchanged. */
function costVariablesOf(schema: GraphQLSchema, document: DocumentNode): string[] {
  const typeInfo = new TypeInfo(schema);
  const found = new Set<string>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const extensions = typeInfo.getFieldDef()?.extensions;
        // The builder's default field cost reads no argument; only declared cost functions may.
        if (typeof extensions?.complexity !== 'function' || extensions.complexity === defaultFieldCost) return;
        const paged = pageLimitsOf(extensions);
        for (const argument of node.arguments ?? []) {
          if (!paged || argument.name.value === paged.pageArgument) variablesIn(argument.value, found);
        }
      },
      Directive(node) {
        for (const argument of node.arguments ?? []) variablesIn(argument.value, found);
      },
    }),
  );
  return [...found].sort();
}

/**
 * Parsed documents are shared between requests (Apollo's document store hands back one object per query text), so
 * the cost of an operation is computed once per document and value of the variables it depends on, instead of a
 * walk of the document on every request. The answer is the one `operationCost` gives.
 */
export function createCostMemo(schema: GraphQLSchema) {
  const documents = new WeakMap<DocumentNode, DocumentCosts>();
  return function memoisedCost(document: DocumentNode, input: Pick<CostInput, 'variables' | 'operationName'>): number | null {
    let entry = documents.get(document);
    if (!entry) {
      entry = { costVariables: costVariablesOf(schema, document), costs: new Map() };
      documents.set(document, entry);
    }
    const variables = input.variables ?? {};
    // An absent variable takes its default, unlike an explicit null: the key tells them apart.
    const values = entry.costVariables.map((name) => (Object.hasOwn(variables, name) ? [variables[name]] : []));
    const key = JSON.stringify([input.operationName ?? null, values]);
    if (key.length > MAX_KEY_LENGTH) return operationCost(schema, document, input);
    const known = entry.costs.get(key);
    if (known !== undefined) return known;
    const cost = operationCost(schema, document, input);
    // Unknown (variables that do not coerce, whichever they are) is not kept: the next request is costed afresh.
    if (cost === null) return null;
    if (entry.costs.size >= COSTS_PER_DOCUMENT) entry.costs.clear();
    entry.costs.set(key, cost);
    return cost;
  };
}
