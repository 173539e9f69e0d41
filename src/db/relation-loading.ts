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

/**
 * To-many relations a single record's read joins all the same when it lists at most SMALL_LIST_MAX of them, for
 * their rows are small: a test's evidence files (a few hundred bytes each), its rule evaluations (notes up to 10,000
 * characters: 5.8 MB at worst, 5–22 ms to parse as measured) and its tracker links. With them a test's detail is one
 * statement, not five.
 */
const SMALL_LISTS = new Set(['Test.evidences', 'Test.detectionEvaluations', 'Test.trackerLinks']);
const SMALL_LIST_MAX = 500;

/** Whether a to-many relation's selection lists at most SMALL_LIST_MAX rows and loads no relation of its own. */
function smallList(model: string, selection: Selection): boolean {
  const take = (selection as { take?: unknown } | undefined)?.take;
  return typeof take === 'number' && Math.abs(take) <= SMALL_LIST_MAX && loadedRelations(model, selection).next().done === true;
}

/** The relation fields a selection loads, with their own selections (`true` for the whole related record). */
function* loadedRelations(model: string, selection: Selection) {
  const fields = relations.get(model);
  if (!fields || !selection) return;
  for (const tree of [selection.include, selection.select]) {
    if (!tree || typeof tree !== 'object') continue;
    for (const [name, value] of Object.entries(tree)) {
      const relation = name === '_count' ? undefined : fields.get(name);
      if (relation && value) yield { name, ...relation, selection: typeof value === 'object' ? (value as Selection) : undefined };
    }
  }
}

/**
 * Whether a selection loads, at any depth, a to-many relation that must keep its own statement: any of them in a
 * list, and in a single record's read any but a small list (`SMALL_LISTS`, `smallList`).
 */
function loadsMany(model: string, selection: Selection, single: boolean): boolean {
  for (const relation of loadedRelations(model, selection)) {
    if (relation.many) {
      if (!single || !SMALL_LISTS.has(`${model}.${relation.name}`) || !smallList(relation.model, relation.selection)) return true;
    } else if (loadsMany(relation.model, relation.selection, false)) return true;
  }
  return false;
}

/**
 * How a read loads its relations. To-one relations (a test's technique, at any depth) come in the record's own
 * statement, each as one small JSON value per row: one round trip instead of one per relation, and less mapping
 * work. A read that loads a to-many relation keeps one statement per relation: in the record's statement a
 * to-many relation arrives as one JSON value, parsed at once on the event loop, and a page of techniques with 200
 * tests of long texts each held the loop for over 100 ms (`test/measured/event-loop.test.ts`). The small lists of a
 * single record are the exception (`SMALL_LISTS`). A strategy the caller chose stands.
 */
export function relationLoadStrategyOf(model: string, operation: string, args: unknown): RelationLoadStrategy | undefined {
  if (!LOADING.has(operation)) return undefined;
  const read = (args ?? {}) as Selection & { relationLoadStrategy?: RelationLoadStrategy };
  if (read.relationLoadStrategy) return read.relationLoadStrategy;
  return loadsMany(model, read, operation !== 'findMany') ? 'query' : 'join';
}
