import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { camelToSnake } from '../src/naming.ts';
import { UuidFields } from './uuid-fields.ts';

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  String: { type: 'string' },
  ID: { type: 'string' },
  UUID: { type: 'string', format: 'uuid' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

/** The same schema, also admitting null (OpenAPI 3.1 is JSON Schema: `type: [..., 'null']`). */
export function orNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string') {
    const admitted = { ...schema, type: [schema.type, 'null'] };
    return Array.isArray(schema.enum) ? { ...admitted, enum: [...schema.enum, null] } : admitted;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * Whether an optional input field takes null. GraphQL cannot say "optional but not null", and most optional fields
 * are just that (leave it out to keep the value); those where null means something say so in their description
 * ("null clears it"), and only those are declared nullable. The contract test sends null to every field declared nullable.
 */
const acceptsNull = (description: string | null | undefined) => /\bnull\b/i.test(description ?? '');

function leafSchema(type: GraphQLNamedType): JsonSchema {
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.name) };
  return SCALARS[type.name] ?? { type: 'string', description: `GraphQL scalar ${type.name}` };
}

/**
 * Converts GraphQL types to JSON Schema. Input objects become shared components (with the REST body's
 * snake_case property names); output shapes are built from each document's selection set.
 */
export class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};
  private readonly uuids = new UuidFields();

  constructor(readonly schema: GraphQLSchema) {}

  /**
   * An input value's schema; nullable types admit null unless `bare` (query and path parameters, and input fields
   * that may be left out but not set to null).
   */
  input(type: GraphQLInputType, bare = false): JsonSchema {
    const inner = getNullableType(type);
    let schema: JsonSchema;
    if (isListType(inner)) schema = { type: 'array', items: this.input(inner.ofType) };
    else if (isInputObjectType(inner)) schema = { $ref: `#/components/schemas/${this.inputObject(inner)}` };
    else schema = leafSchema(inner);
    return bare || isNonNullType(type) ? schema : orNull(schema);
  }

  private inputObject(type: GraphQLInputObjectType): string {
    if (this.components[type.name]) return type.name;
    const schema: JsonSchema = { type: 'object', additionalProperties: false };
    this.components[type.name] = schema; // registered before the fields, for recursive inputs
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(type.getFields())) {
      const key = camelToSnake(field.name);
      properties[key] = {
        ...this.input(field.type, !acceptsNull(field.description)),
        ...(field.description ? { description: field.description } : {}),
      };
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(key);
    }
    Object.assign(schema, {
      properties,
      ...(required.length ? { required } : {}),
      ...(type.description ? { description: type.description } : {}),
    });
    return type.name;
  }

  /** An object with one property per named input value (form fields, named body fields). */
  object(fields: Iterable<[string, GraphQLInputType]>): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [name, type] of fields) {
      properties[name] = this.input(type);
      if (isNonNullType(type)) required.push(name);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }

  /**
   * The JSON a field of `type` answers with `selectionSet` selected; aliases are the property names. `model` is the
   * Prisma model of an object reached through a relation; `uuid` marks a leaf holding record ids.
   */
  output(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    fragments: FragmentMap,
    { uuid = false, model }: { uuid?: boolean; model?: string } = {},
  ): JsonSchema {
    const inner = getNullableType(type);
    let schema: JsonSchema;
    if (isListType(inner)) schema = { type: 'array', items: this.output(inner.ofType, selectionSet, fragments, { uuid, model }) };
    else if (selectionSet) schema = this.selection(inner, selectionSet, fragments, model);
    else schema = uuid ? SCALARS.UUID : leafSchema(inner);
    return isNonNullType(type) ? schema : orNull(schema);
  }

  /** The object a selection set produces on `parent` (of model `via`, reached by a relation); fragments merge their fields in. */
  selection(parent: GraphQLNamedType, selectionSet: SelectionSetNode, fragments: FragmentMap, via?: string): JsonSchema {
    const model = this.uuids.modelOf(parent) ?? via;
    const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : {};
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const field = fields[selection.name.value];
        properties[key] = field
          ? {
              ...this.output(field.type, selection.selectionSet, fragments, {
                uuid: this.uuids.isUuid(parent, model, field),
                model: this.uuids.modelOf(getNamedType(field.type), model, field),
              }),
              ...(field.description ? { description: field.description } : {}),
            }
          : { type: 'string' }; // __typename
        required.push(key);
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (!fragment) continue;
      const condition = fragment.typeCondition ? this.schema.getType(fragment.typeCondition.name.value) : parent;
      const merged = this.selection(
        condition ?? parent,
        fragment.selectionSet,
        fragments,
        condition && condition !== parent ? undefined : model,
      );
      Object.assign(properties, merged.properties);
      // Fields of a fragment on another type are present only for that type.
      if (!fragment.typeCondition || condition === parent) required.push(...((merged.required as string[]) ?? []));
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
}

export type FragmentMap = Map<string, FragmentDefinitionNode>;
