import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';

let admin: { id: string; username: string; token: string };
let other: { id: string; username: string };

const app = useTestApp();

beforeAll(async () => {
  const user = await app.createUser({ role: 'admin' });
  admin = { ...user, token: await app.login(user.username) };
  other = await app.createUser({ role: 'blue_tech' });
  await app.services.prisma.auditLog.createMany({
    data: [
      {
        userId: other.id,
        username: other.username,
        action: 'seeded_action',
        entityType: 'seed',
        entityId: 'a',
        timestamp: new Date('2020-01-01T00:00:00Z'),
      },
      {
        userId: other.id,
        username: other.username,
        action: 'seeded_action',
        entityType: 'seed',
        entityId: 'b',
        timestamp: new Date('2020-06-01T12:00:00Z'),
      },
      {
        userId: other.id,
        username: other.username,
        action: 'other_seeded_action',
        entityType: 'seed',
        entityId: 'c',
        timestamp: new Date('2021-01-01T00:00:00Z'),
      },
      ...Array.from({ length: 60 }, (_, index) => ({
        userId: null,
        username: 'system',
        action: 'bulk_action',
        entityType: 'bulk',
        timestamp: new Date(Date.UTC(2019, 0, 1, 0, index)),
      })),
    ],
  });
});

const auditLogs = (query = '', token = admin.token) => app.api('GET', `/audit-logs${query}`, { token });
const entityIds = (body: any) => body.items.map((item: any) => item.entity_id);

describe('audit entries', () => {
  it('a mutation through REST writes an entry with who, what, which record and details', async () => {
    const created = await app.api('POST', '/techniques', { token: admin.token, body: { ttp_id: 'T8001', name: 'Audited technique' } });
    expect(created.status).toBe(201);
    const list = await auditLogs('?action=create_technique');
    expect(list).toMatchObject({ status: 200, body: { total: 1, offset: 0, limit: 50 } });
    expect(list.body.items[0]).toEqual({
      id: expect.any(String),
      user_id: admin.id,
      username: admin.username,
      action: 'create_technique',
      entity_type: 'technique',
      entity_id: created.body.id,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      details: { ttp_id: 'T8001', name: 'Audited technique' },
    });
  });

  it('filters by user, action, entity type and date range, newest first', async () => {
    expect(entityIds((await auditLogs(`?user_id=${other.id}`)).body)).toEqual(['c', 'b', 'a']);
    expect(entityIds((await auditLogs('?action=seeded_action')).body)).toEqual(['b', 'a']);
    expect(entityIds((await auditLogs('?entity_type=seed&action=other_seeded_action')).body)).toEqual(['c']);
    expect(entityIds((await auditLogs('?entity_type=seed&start_date=2020-03-01&end_date=2020-12-31')).body)).toEqual(['b']);
    expect(entityIds((await auditLogs('?entity_type=seed&start_date=2020-06-01T14:00:00%2B02:00')).body)).toEqual(['c', 'b']);
    expect(entityIds((await auditLogs('?entity_type=seed&end_date=2020-06-01T11:59:59Z')).body)).toEqual(['a']);
    expect((await auditLogs('?action=no_such_action')).body).toEqual({ items: [], total: 0, offset: 0, limit: 50 });
  });

  it('bad filters answer 400 naming the field', async () => {
    expect(await auditLogs('?start_date=yesterday')).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_ERROR', field: 'start_date' },
    });
    expect(await auditLogs('?end_date=2020-02-30')).toMatchObject({ status: 400, body: { field: 'end_date' } });
    expect(await auditLogs('?start_date=2021-01-01&end_date=2020-01-01')).toMatchObject({ status: 400, body: { field: 'end_date' } });
    expect(await auditLogs('?user_id=42')).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'user_id' } });
  });

  it('pages with offset default 0 and limit default 50, max 100', async () => {
    const firstPage = await auditLogs('?action=bulk_action');
    expect(firstPage.body).toMatchObject({ total: 60, offset: 0, limit: 50 });
    expect(firstPage.body.items).toHaveLength(50);
    const timestamps = firstPage.body.items.map((item: any) => item.timestamp);
    expect(timestamps).toEqual([...timestamps].sort().reverse());
    const rest = await auditLogs('?action=bulk_action&offset=50');
    expect(rest.body.items).toHaveLength(10);
    expect(rest.body.items[9].timestamp).toBe('2019-01-01T00:00:00.000Z');
    expect((await auditLogs('?action=bulk_action&limit=100')).body.items).toHaveLength(60);
    expect(await auditLogs('?limit=101')).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR', field: 'limit' } });
    expect(await auditLogs('?limit=0')).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await auditLogs('?limit=ten')).toMatchObject({ status: 400, body: { field: 'limit' } });
    expect(await auditLogs('?offset=-1')).toMatchObject({ status: 400, body: { field: 'offset' } });
  });

  it('lists the distinct actions and entity types, sorted', async () => {
    const actions = await app.api('GET', '/audit-logs/actions', { token: admin.token });
    expect(actions.status).toBe(200);
    expect(actions.body).toEqual(
      expect.arrayContaining(['bulk_action', 'create_technique', 'login', 'other_seeded_action', 'seeded_action']),
    );
    expect(actions.body).toEqual([...new Set(actions.body)].sort());
    const entityTypes = await app.api('GET', '/audit-logs/entity-types', { token: admin.token });
    expect(entityTypes.body).toEqual(['bulk', 'seed', 'technique', 'user']);
  });

  it('GraphQL answers the same', async () => {
    const result = await app.graphql(
      `{ auditLogs(filter: { action: "seeded_action", startDate: "2020-01-01T00:00:00Z" }, limit: 1) { total limit items { entityId username } }
         auditLogEntityTypes }`,
      {},
      admin.token,
    );
    expect(result.data).toEqual({
      auditLogs: { total: 2, limit: 1, items: [{ entityId: 'b', username: other.username }] },
      auditLogEntityTypes: ['bulk', 'seed', 'technique', 'user'],
    });
  });

  it('only admins may read the audit log', async () => {
    for (const role of ['red_lead', 'blue_lead', 'viewer'] as const) {
      const token = await app.tokenFor(role);
      for (const path of ['/audit-logs', '/audit-logs/actions', '/audit-logs/entity-types']) {
        expect(await app.api('GET', path, { token }), `${role} ${path}`).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
      }
    }
    expect((await app.api('GET', '/audit-logs')).status).toBe(401);
    const graphql = await app.graphql('{ auditLogActions }', {}, await app.tokenFor('viewer'));
    expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });
});
