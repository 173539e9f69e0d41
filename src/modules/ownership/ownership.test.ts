import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.ts';
import { eventsSettled } from '../../../test/helpers/events.ts';
import { team, technique, type Team } from '../../../test/helpers/test-runs.ts';

const app = useTestApp();
let t: Team;

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

beforeAll(async () => {
  t = await team(app);
});

const assign = (token: string, body: Record<string, unknown>) => app.api('POST', '/ownership/assignments', { token, body });

describe('technique ownership', () => {
  it('a lead assigns a technique by its ATT&CK id to an active user, once per responsibility; "both" is a responsibility of its own', async () => {
    const tech = await technique(app);
    const created = await assign(t.blue_lead.token, {
      technique_id: tech.ttpId,
      owner_id: t.blue_tech.id,
      responsibility: 'blue',
      team: 'SOC',
      due_date: '2030-01-31',
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        technique: { id: tech.id, ttp_id: tech.ttpId },
        owner: { id: t.blue_tech.id, username: t.blue_tech.username },
        responsibility: 'blue',
        team: 'SOC',
        due_date: '2030-01-31',
      },
    });

    const again = await assign(t.red_lead.token, { technique_id: tech.id, owner_id: t.red_tech.id, responsibility: 'blue' });
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(again.body.detail).toContain(`${tech.ttpId} already has an owner for the blue responsibility`);
    expect((await assign(t.red_lead.token, { technique_id: tech.id, owner_id: t.red_tech.id, responsibility: 'both' })).status).toBe(201);

    const listed = await app.api('GET', `/ownership/assignments?technique=${tech.ttpId}`, { token: t.viewer.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((row: any) => row.responsibility).sort()).toEqual(['blue', 'both']);
  });

  it('refuses an owner who is not an active user, and technicians and viewers may not assign', async () => {
    const tech = await technique(app);
    const gone = await app.createUser({ role: 'blue_tech', isActive: false });
    const refused = await assign(t.blue_lead.token, { technique_id: tech.ttpId, owner_id: gone.id, responsibility: 'blue' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } });
    for (const member of [t.red_tech, t.blue_tech, t.viewer])
      expect((await assign(member.token, { technique_id: tech.ttpId, owner_id: t.blue_tech.id, responsibility: 'blue' })).status).toBe(403);
  });

  it('an assignment changes and goes, and the audit log keeps both', async () => {
    const tech = await technique(app);
    const { body } = await assign(t.red_lead.token, { technique_id: tech.ttpId, owner_id: t.red_tech.id, responsibility: 'red' });
    const changed = await app.api('PATCH', `/ownership/assignments/${body.id}`, {
      token: t.red_lead.token,
      body: { team: 'Red cell', notes: 'Quarterly' },
    });
    expect(changed).toMatchObject({ status: 200, body: { id: body.id, team: 'Red cell', notes: 'Quarterly', responsibility: 'red' } });
    expect((await app.api('DELETE', `/ownership/assignments/${body.id}`, { token: t.red_lead.token })).status).toBe(204);
    expect((await app.api('DELETE', `/ownership/assignments/${body.id}`, { token: t.red_lead.token })).status).toBe(404);
    const audit = await app.services.prisma.auditLog.findMany({
      where: { entityType: 'ownership_assignment', entityId: body.id },
      orderBy: { timestamp: 'asc' },
    });
    expect(audit.map((row) => row.action)).toEqual([
      'create_ownership_assignment',
      'update_ownership_assignment',
      'delete_ownership_assignment',
    ]);
  });
});

describe('owned assets', () => {
  it('blue leads record the systems the team looks after (criticality medium unless said); red leads may not', async () => {
    const created = await app.api('POST', '/ownership/assets', {
      token: t.blue_lead.token,
      body: { name: 'Domain controllers', kind: 'system', platform: 'windows', owner_id: t.blue_tech.id },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Domain controllers', kind: 'system', criticality: 'medium', owner: { id: t.blue_tech.id } },
    });
    await app.api('POST', '/ownership/assets', {
      token: t.admin.token,
      body: { name: 'Payroll', kind: 'application', criticality: 'critical' },
    });
    const refused = await app.api('POST', '/ownership/assets', { token: t.red_lead.token, body: { name: 'Lab', kind: 'environment' } });
    expect(refused.status).toBe(403);

    const critical = await app.api('GET', '/ownership/assets?criticality=critical', { token: t.viewer.token });
    expect(critical.body.items.map((asset: any) => asset.name)).toEqual(['Payroll']);
  });
});

describe('the revalidation queue', () => {
  it('is rebuilt from expired and invalidated validations and stale coverage, highest risk first, and tells the owners once', async () => {
    const expired = await technique(app);
    const invalidated = await technique(app);
    const stale = await app.services.prisma.technique.create({
      data: { ttpId: 'T1999', name: 'Stale coverage', tactic: 'Execution', statusGlobal: 'validated' },
    });
    await app.services.prisma.detectionValidation.createMany({
      data: [
        { techniqueId: expired.id, validatedAt: daysAgo(120), validUntil: daysAgo(30) },
        {
          techniqueId: invalidated.id,
          validatedAt: daysAgo(10),
          validUntil: new Date(Date.now() + 80 * DAY),
          invalidatedAt: daysAgo(1),
          invalidatedReason: 'agent removed',
        },
      ],
    });
    await app.services.prisma.test.create({
      data: {
        name: 'Old run',
        techniqueId: stale.id,
        state: 'validated',
        decidedAt: daysAgo(100),
        createdById: t.red_lead.id,
        lineageId: randomUUID(),
      },
    });
    await app.services.prisma.riskProfile.create({
      data: { techniqueId: invalidated.id, impact: 4, likelihood: 4, score: 16, actorCount: 2, tacticWeight: 1 },
    });
    await assign(t.blue_lead.token, { technique_id: expired.ttpId, owner_id: t.blue_tech.id, responsibility: 'blue' });

    expect((await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.red_lead.token })).status).toBe(403);
    const first = await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.blue_lead.token });
    expect(first).toMatchObject({ status: 200, body: { added: 3, kept: 0, removed: 0, total: 3 } });

    const queue = await app.api('GET', '/ownership/revalidation-queue', { token: t.blue_lead.token });
    expect(queue.body.items.map((entry: any) => [entry.technique.ttp_id, entry.reason])).toEqual([
      [invalidated.ttpId, 'validation_invalidated'],
      [expired.ttpId, 'validation_expired'],
      ['T1999', 'coverage_stale'],
    ]);
    expect(queue.body.items[0]).toMatchObject({ risk_score: 16, detail: 'The latest validation was invalidated: agent removed' });
    expect((await app.api('GET', '/ownership/revalidation-queue?reason=coverage_stale', { token: t.admin.token })).body.items).toHaveLength(
      1,
    );
    expect((await app.api('GET', '/ownership/revalidation-queue', { token: t.viewer.token })).status).toBe(403);

    await eventsSettled(app);
    const notices = await app.services.prisma.notification.findMany({ where: { event: 'revalidation_needed' } });
    expect(notices.map((notice) => [notice.userId, notice.message])).toEqual([
      [t.blue_tech.id, `A technique you own needs re-testing: ${expired.ttpId}`],
    ]);

    // A fresh validation takes the expired technique out at the next rebuild; nothing new means no new notice.
    await app.services.prisma.detectionValidation.create({
      data: { techniqueId: expired.id, validUntil: new Date(Date.now() + 90 * DAY) },
    });
    const second = await app.api('POST', '/ownership/revalidation-queue/generate', { token: t.admin.token });
    expect(second.body).toEqual({ added: 0, kept: 2, removed: 1, total: 2 });
    expect(await app.services.prisma.notification.count({ where: { event: 'revalidation_needed' } })).toBe(1);
    expect(await app.services.prisma.auditLog.count({ where: { action: 'generate_revalidation_queue' } })).toBe(2);
  });
});
