import { getDatamodel } from '../generated/pothos-types.ts';

export type RelationLoadStrategy = 'join' | 'query';

/** Per model, its relation fields: the related model and whether the relation is to-many. */
const relations = new Map<string, Map<string, { model: string; many: boolean }>>(
  Object.entries(getDatamodel().datamodel.models).map(([model, { fields }]) => [
    model,
    new Map(fields.filter((field) => field.kind === 'object').map((field) => [field.name, { model: field.type, many: field.isList }])),
  ]),
);

/** Operations that answer records with their relations, and so take `relationLoadStrategy`. */
const LOADING = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'create',
  'update',
  'upsert',
  'delete',
]);

type Selection = { include?: unknown; select?: unknown } | undefined;

/** Whether a selection (a read's `include` and `select`, at any depth) loads a to-many relation of `model`. */
function loadsMany(model: string, selection: Selection): boolean {
  const fields = relations.get(model);
  if (!fields || !selection) return false;
  for (const tree of [selection.include, selection.select]) {
    if (!tree || typeof tree !== 'object') continue;
    for (const [name, value] of Object.entries(tree)) {
      const relation = name === '_count' ? undefined : fields.get(name);
      if (!relation || !value) continue;
      if (relation.many) return true;
      if (typeof value === 'object' && loadsMany(relation.model, value as Selection)) return true;
    }
  }
  return false;
}

/**
 * How a read loads its relations. To-one relations (a test's technique, at any depth) come in the record's own
 * statement, each as one small JSON value per row: one round trip instead of one per relation, and less mapping
 * work. A read that loads a to-many relation keeps one statement per relation: in the record's statement a
 * to-many relation arrives as one JSON value, parsed at once on the event loop, and a page of techniques with 200
 * tests of long texts each held the loop for over 100 ms (`test/measured/event-loop.test.ts`). A strategy the
 * caller chose stands.
 */
export function relationLoadStrategyOf(model: string, operation: string, args: unknown): RelationLoadStrategy | undefined {
  if (!LOADING.has(operation)) return undefined;
  const read = (args ?? {}) as Selection & { relationLoadStrategy?: RelationLoadStrategy };
  if (read.relationLoadStrategy) return read.relationLoadStrategy;
  return loadsMany(model, read) ? 'query' : 'join';
}
