import { readFileSync } from 'node:fs';
import { getNamedType, type GraphQLField, type GraphQLNamedType } from 'graphql';
import { PRISMA_SCHEMA } from '../src/paths.ts';

/** What the OpenAPI document needs of prisma/schema.prisma: which columns hold uuids and where relations lead. */
export interface PrismaShape {
  /** `Model.field` of every `@db.Uuid` column, lists of uuids included (ids and references). */
  uuids: Set<string>;
  /** `Model.field` of every other scalar column. */
  others: Set<string>;
  /** `Model.relation` → the related model. */
  relations: Map<string, string>;
  models: Set<string>;
}

export function prismaShape(source = readFileSync(PRISMA_SCHEMA, 'utf8')): PrismaShape {
  const bodies = [...source.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].map(([, model, body]) => [model, body] as const);
  const shape: PrismaShape = { uuids: new Set(), others: new Set(), relations: new Map(), models: new Set(bodies.map(([model]) => model)) };
  for (const [model, body] of bodies) {
    for (const line of body.split('\n')) {
      const [, field, type, rest] = /^[ \t]+(\w+)[ \t]+(\w+)(?:\[\])?\??(.*)$/.exec(line) ?? [];
      if (!field) continue;
      if (shape.models.has(type)) shape.relations.set(`${model}.${field}`, type);
      else if (type === 'String' && /@db\.Uuid\b/.test(rest)) shape.uuids.add(`${model}.${field}`);
      else shape.others.add(`${model}.${field}`);
    }
  }
  return shape;
}

/** Record ids the types above cannot tell: a `String` of a type no model backs, a list of test ids kept as text. */
const OTHER_REFERENCES = new Set(['SsoLink.userId', 'CampaignExecution.testIds']);

type Field = GraphQLField<unknown, unknown>;

/**
 * Which answer fields hold record ids. A type's Prisma model is the one the Prisma plugin gives it, else the model
 * of its name, else the model its parent's relation field leads to (`technique { id }` on a validation is a
 * Technique). A field of a model holds a uuid when its column is `@db.Uuid`; a field of a type no model backs
 * (aggregates, search hits, events) when GraphQL types it `ID`, as ATT&CK, STIX and other outside ids are `String`.
 */
export class UuidFields {
  constructor(private readonly shape = prismaShape()) {}

  /** The model behind `type`, reached from a parent of model `parentModel` through `field`. */
  modelOf(type: GraphQLNamedType, parentModel?: string, field?: Field): string | undefined {
    const own = type.extensions?.pothosPrismaModel;
    if (typeof own === 'string') return own;
    if (this.shape.models.has(type.name)) return type.name;
    return parentModel && field ? this.shape.relations.get(`${parentModel}.${this.columnName(field)}`) : undefined;
  }

  isUuid(parent: GraphQLNamedType, model: string | undefined, field: Field): boolean {
    const leaf = getNamedType(field.type).name;
    if (leaf !== 'ID' && leaf !== 'String') return false;
    if (OTHER_REFERENCES.has(`${parent.name}.${field.name}`)) return true;
    const column = `${model}.${this.columnName(field)}`;
    if (model && this.shape.uuids.has(column)) return true;
    if (model && this.shape.others.has(column)) return false;
    return leaf === 'ID';
  }

  private columnName(field: Field): string {
    const exposed = field.extensions?.pothosExposedField;
    return typeof exposed === 'string' ? exposed : field.name;
  }
}
