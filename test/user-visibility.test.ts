import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/graphql/schema.ts';
import { ASSIGNABLE_USER_FIELDS, PUBLIC_USER_FIELDS } from '../src/modules/users/permissions.ts';
import { useTestApp } from './helpers/app.ts';
import { team, technique, type Team } from './helpers/test-runs.ts';

/**
 * Generated from the schema: every field whose type is a user (the `User` type or any other variant of the User
 * model), reached from Query by the cheapest path, is queried as a viewer with every field the type has.
 * No other user's private field (anything but id, username, display name) may come back.
 */

type Path = { parent: GraphQLObjectType; field: GraphQLField<unknown, unknown> }[];

const PUBLIC = new Set<string>(PUBLIC_USER_FIELDS);
/** User types whose root field admits only leads and shows them more than the public fields. */
const WIDER_FIELDS: Record<string, readonly string[]> = { AssignableUser: ASSIGNABLE_USER_FIELDS };
const visibleFields = (typeName: string) => new Set<string>(WIDER_FIELDS[typeName] ?? PUBLIC);
const PRIVATE_FIELDS = Object.keys((schema.getType('User') as GraphQLObjectType).getFields()).filter((name) => !PUBLIC.has(name));
const fieldsOf = (type: GraphQLNamedType) => (isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : []);
/** Types built on the User model (Pothos records the model of every prismaObject and variant). */
const isUserType = (type: GraphQLNamedType) => isObjectType(type) && type.extensions?.pothosPrismaModel === 'User';
const requiredArgs = (field: GraphQLField<unknown, unknown>) =>
  field.args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined);

/** Required arguments the walk can fill: ids (given another user's id); any other required argument makes a field costly. */
const fillable = (field: GraphQLField<unknown, unknown>) =>
  requiredArgs(field).every((arg) => ['ID', 'UUID'].includes(getNamedType(arg.type).name));

/** The cheapest path from Query to every object type: fewest required arguments first, then fewest steps. */
function pathsFromQuery(): Map<string, Path> {
  const query = schema.getQueryType()!;
  const best = new Map<string, { cost: number; path: Path }>([[query.name, { cost: 0, path: [] }]]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const [typeName, { cost, path }] of [...best]) {
      const parent = schema.getType(typeName) as GraphQLObjectType;
      for (const field of fieldsOf(parent)) {
        const target = getNamedType(field.type);
        if (!isObjectType(target) || !fillable(field)) continue;
        const next = cost + 1 + 100 * requiredArgs(field).length;
        if ((best.get(target.name)?.cost ?? Infinity) > next) {
          best.set(target.name, { cost: next, path: [...path, { parent, field }] });
          changed = true;
        }
      }
    }
  }
  return new Map([...best].map(([name, { path }]) => [name, path]));
}

/** Every (type, field) in the schema whose type is a user, reachable from Query. */
function userFields(paths: Map<string, Path>): Path[] {
  const found: Path[] = [];
  for (const [typeName, path] of paths) {
    for (const field of fieldsOf(schema.getType(typeName)!)) {
      if (isUserType(getNamedType(field.type)) && fillable(field))
        found.push([...path, { parent: schema.getType(typeName) as GraphQLObjectType, field }]);
    }
  }
  return found;
}

const label = (path: Path) => path.map(({ field }) => field.name).join('.');

/** A query that follows the path and selects every leaf field of the user type at its end (or only `extra`). */
function documentFor(path: Path, otherUserId: string, extra?: string): string {
  const target = getNamedType(path[path.length - 1].field.type) as GraphQLObjectType;
  const leaves =
    extra ??
    fieldsOf(target)
      .filter((field) => isLeafType(getNamedType(field.type)) && !requiredArgs(field).length)
      .map((field) => field.name)
      .join(' ');
  return `${path
    .reduceRight((inner, { field }) => {
      const args = requiredArgs(field).map((arg) => `${arg.name}: ${JSON.stringify(otherUserId)}`);
      return `${field.name}${args.length ? `(${args.join(', ')})` : ''} { ${inner} }`;
    }, leaves)
    .replace(/^/, 'query { ')} }`;
}

/** Every object in a response that stands for a user. */
function usersIn(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) usersIn(item, found);
  else if (value && typeof value === 'object') {
    if ('username' in value) found.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) usersIn(item, found);
  }
  return found;
}

let members: Team;

const app = useTestApp();

beforeAll(async () => {
  members = await team(app);
  // Every private field of every other user holds a value, so that a leak cannot hide behind a null.
  for (const member of Object.values(members)) {
    await app.services.prisma.user.update({
      where: { id: member.id },
      data: {
        email: `${member.username}@corp.example`,
        trackerAccountId: `tracker-${member.username}`,
        displayName: `Name ${member.username}`,
      },
    });
  }
  const { red_lead: creator, red_tech: assignee, blue_lead: remediator, admin } = members;
  const campaign = await app.services.prisma.campaign.create({ data: { name: 'Visibility', createdById: creator.id } });
  const { id: techniqueId } = await technique(app);
  const visibilityTest = await app.services.prisma.test.create({
    data: {
      name: 'Visibility test',
      techniqueId,
      campaignId: campaign.id,
      createdById: creator.id,
      assignedToId: assignee.id,
      remediationAssigneeId: remediator.id,
      remediationStatus: 'pending',
      lineageId: '00000000-0000-4000-8000-000000000001',
    },
  });
  await app.services.prisma.evidence.create({
    data: {
      testId: visibilityTest.id,
      team: 'red',
      fileName: 'visibility.txt',
      contentType: 'text/plain',
      sizeBytes: 1,
      sha256Hash: '0'.repeat(64),
      storageKey: 'visibility/evidence',
      uploadedById: assignee.id,
    },
  });
  expect((await app.api('POST', '/snapshots', { token: admin.token, body: { name: 'Visibility' } })).status).toBe(201);
  await app.services.prisma.detectionAsset.create({ data: { name: 'Visibility asset', kind: 'siem_rule', ownerId: remediator.id } });
  await app.services.prisma.ownedAsset.create({ data: { name: 'Visibility system', kind: 'system', ownerId: remediator.id } });
  await app.services.prisma.ownershipAssignment.create({ data: { techniqueId, ownerId: remediator.id, responsibility: 'blue' } });
  const path = await app.services.prisma.attackPath.create({
    data: { name: 'Visibility path', createdById: creator.id, steps: { create: [{ position: 1, techniqueId }] } },
  });
  const step = { position: 1, techniqueId, ttpId: 'T0001', techniqueName: 'Visibility', expectedOutcome: 'detected' as const };
  await app.services.prisma.attackPathExecution.create({
    data: { pathId: path.id, pathName: path.name, createdById: creator.id, steps: { create: [{ ...step, recordedById: creator.id }] } },
  });
  const playbook = await app.api('POST', '/knowledge/playbooks', {
    token: creator.token,
    body: { technique_id: techniqueId, type: 'detection', title: 'Visibility' },
  });
  // Edited by another user: the first version keeps the creator as its author.
  const edit = { version: 1, content: 'edited' };
  expect((await app.api('PATCH', `/knowledge/playbooks/${playbook.body.id}`, { token: admin.token, body: edit })).status).toBe(200);
  const lesson = { technique_id: techniqueId, what_happened: 'Visibility', root_cause: 'Visibility' };
  expect((await app.api('POST', '/knowledge/lessons', { token: creator.token, body: lesson })).status).toBe(201);
  // Worklogs of the viewer and of another user: the viewer's list must show only the viewer.
  for (const member of [members.viewer, creator]) {
    const entry = { minutes: 5, date: new Date().toISOString().slice(0, 10), description: 'Visibility' };
    expect((await app.api('POST', '/worklogs', { token: member.token, body: entry })).status).toBe(201);
  }
});

describe('other users as a viewer sees them', () => {
  const paths = pathsFromQuery();
  const reachable = userFields(paths);

  it('the walk finds the user references of tests, campaigns and snapshots and the user queries', () => {
    expect(reachable.map(label)).toEqual(
      expect.arrayContaining([
        'me',
        'user',
        'users.items',
        expect.stringMatching(/createdBy$/),
        expect.stringMatching(/assignedTo$/),
        expect.stringMatching(/remediationAssignee$/),
      ]),
    );
    const parents = new Set(reachable.map((path) => path[path.length - 1].parent.name));
    expect([...parents]).toEqual(expect.arrayContaining(['Query', 'Test', 'Campaign', 'Snapshot']));
  });

  it('every type that stands for a user, other than User itself, has only public fields, or those documented for a leads-only type', () => {
    const userTypes = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__') && isUserType(type));
    expect(userTypes.map((type) => type.name)).toContain('UserSummary');
    for (const type of userTypes.filter((type) => type.name !== 'User')) {
      expect(
        fieldsOf(type)
          .map((field) => field.name)
          .sort(),
        type.name,
      ).toEqual([...visibleFields(type.name)].sort());
    }
  });

  it('nested references never use the full User type: only the user queries and mutations return it (or their pages)', () => {
    const types = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'));
    const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((type) => type?.name));
    const holders = (name: string) => types.filter((type) => fieldsOf(type).some((field) => getNamedType(field.type).name === name));
    // A wrapper such as UserPage counts as a root answer when only root fields return it.
    const rootOnly = (name: string) => holders(name).every((holder) => roots.has(holder.name));
    const nested = types
      .filter((type) => !roots.has(type.name) && !rootOnly(type.name))
      .flatMap((type) =>
        fieldsOf(type)
          .filter((field) => getNamedType(field.type).name === 'User')
          .map((field) => `${type.name}.${field.name}`),
      );
    expect(nested).toEqual([]);
  });

  it('no private field of another user can be read through any user reference reachable from Query', async () => {
    const viewer = members.viewer;
    const other = members.red_lead;
    const report: Record<string, string> = {};
    for (const path of reachable) {
      const result = (await app.graphql(documentFor(path, other.id), {}, viewer.token)) as {
        data?: unknown;
        errors?: { extensions?: { code?: string } }[];
      };
      const others = usersIn(result.data).filter((user) => user.id !== viewer.id);
      const leaked = others.flatMap((user) =>
        PRIVATE_FIELDS.filter((name) => user[name] !== undefined && user[name] !== null).map((name) => `${name} of ${user.username}`),
      );
      const forbidden = result.errors?.some((error) => error.extensions?.code === 'FORBIDDEN') ?? false;
      const ownOnly = usersIn(result.data).length > 0 && others.length === 0;
      report[label(path)] = leaked.length
        ? `leaks ${leaked.join(', ')}`
        : forbidden
          ? 'forbidden'
          : others.length
            ? 'public fields only'
            : ownOnly
              ? 'own account'
              : 'no data: seed some';
    }
    for (const [path, outcome] of Object.entries(report))
      expect([path, outcome]).toEqual([path, expect.stringMatching(/^(forbidden|public fields only|own account)$/)]);
    expect(report).toMatchObject({ me: 'own account', user: 'forbidden', 'users.items': 'forbidden', assignableUsers: 'forbidden' });
  });

  it('asking a user reference for a private field is refused by the schema itself', async () => {
    for (const path of reachable.filter((path) => getNamedType(path[path.length - 1].field.type).name !== 'User')) {
      const typeName = getNamedType(path[path.length - 1].field.type).name;
      for (const name of PRIVATE_FIELDS.filter((name) => !visibleFields(typeName).has(name))) {
        const result = (await app.graphql(documentFor(path, members.red_lead.id, `id ${name}`), {}, members.viewer.token)) as {
          errors?: { message: string }[];
        };
        expect(result.errors?.[0].message, `${label(path)}.${name}`).toMatch(`Cannot query field "${name}" on type "${typeName}"`);
      }
    }
  });

  it('admins and the user themself still read the private fields', async () => {
    const other = members.red_lead;
    const byAdmin = await app.graphql(
      `query { user(id: "${other.id}") { email role isActive mustChangePassword trackerAccountId } }`,
      {},
      members.admin.token,
    );
    expect(byAdmin.data.user).toEqual({
      email: `${other.username}@corp.example`,
      role: 'red_lead',
      isActive: true,
      mustChangePassword: false,
      trackerAccountId: `tracker-${other.username}`,
    });
    const self = await app.graphql('query { me { email role preferences } }', {}, other.token);
    expect(self.data.me).toMatchObject({ email: `${other.username}@corp.example`, role: 'red_lead', preferences: expect.any(Object) });
  });
});
