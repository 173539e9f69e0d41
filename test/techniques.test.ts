import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';

let app: TestApp;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  admin = await app.tokenFor('admin');
});
afterAll(() => app.close());

describe('techniques', () => {
  it('an admin creates a custom technique, and the change is audited in the same transaction', async () => {
    const created = await app.api('POST', '/techniques', {
      token: admin,
      body: { ttp_id: 'T9001', name: 'Custom one', tactic: 'Execution', platforms: ['Windows', 'Linux'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ttp_id: 'T9001', name: 'Custom one', tactic: 'Execution', status_global: 'not_evaluated', is_custom: true });
    const audit = await app.services.prisma.auditLog.findFirst({ where: { action: 'create_technique', entityId: created.body.id } });
    expect(audit).toMatchObject({ entityType: 'technique', details: { ttp_id: 'T9001', name: 'Custom one' } });
  });

  it('a duplicate ttp_id answers 409 and a missing name names the field', async () => {
    const duplicate = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9001', name: 'Again' } });
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    const missing = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9002' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
    const unknown = await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9002', name: 'x', colour: 'red' } });
    expect(unknown.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'colour' });
  });

  it('filters by tactic, status, review flag, platform and search; GraphQL gives the same answer', async () => {
    await app.api('POST', '/techniques', { token: admin, body: { ttp_id: 'T9003', name: 'Second', tactic: 'Persistence', platforms: ['macOS'] } });
    await app.api('PATCH', '/techniques/T9003', { token: admin, body: { review_required: true, status_global: 'partial' } });
    const viewer = await app.tokenFor('viewer');
    const byTactic = await app.api('GET', '/techniques?tactic=persistence', { token: viewer });
    expect(byTactic.body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    expect((await app.api('GET', '/techniques?status=partial', { token: viewer })).body).toHaveLength(1);
    expect((await app.api('GET', '/techniques?coverage_status=not_evaluated', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9001']);
    expect((await app.api('GET', '/techniques?review_required=true', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    expect((await app.api('GET', '/techniques?platform=Linux', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9001']);
    expect((await app.api('GET', '/techniques?search=second', { token: viewer })).body.map((t: any) => t.ttp_id)).toEqual(['T9003']);
    const graphql = await app.graphql('{ techniques(filter: { reviewRequired: true }) { ttpId statusGlobal } }', {}, viewer);
    expect(graphql.data).toEqual({ techniques: [{ ttpId: 'T9003', statusGlobal: 'partial' }] });
  });

  it('a lead marks a technique reviewed; a technician may not', async () => {
    const lead = await app.tokenFor('blue_lead');
    const reviewed = await app.api('PATCH', '/techniques/T9003/review', { token: lead });
    expect(reviewed).toMatchObject({ status: 200, body: { review_required: false } });
    expect((await app.api('PATCH', '/techniques/T9003/review', { token: await app.tokenFor('red_tech') })).status).toBe(403);
  });

  it('unknown techniques answer 404 and bad query values 400', async () => {
    const viewer = await app.tokenFor('viewer');
    expect(await app.api('GET', '/techniques/T0000', { token: viewer })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await app.api('GET', '/techniques?status=great', { token: viewer })).toMatchObject({ status: 400, body: { field: 'status' } });
  });
});
