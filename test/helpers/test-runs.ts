import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Role } from '../../src/auth/roles.ts';
import type { TestState } from '../../src/generated/prisma/enums.ts';
import { madeBeforeAll, type TestApp } from './app.ts';
import { eventsSettled } from './events.ts';

export interface Member {
  id: string;
  username: string;
  role: Role;
  token: string;
}

export type Team = Record<Role, Member>;

/** One signed-in user of every role. */
export async function team(app: TestApp): Promise<Team> {
  const roles: Role[] = ['admin', 'red_lead', 'blue_lead', 'red_tech', 'blue_tech', 'viewer'];
  const members = await Promise.all(
    roles.map(async (role) => {
      const user = await app.createUser({ role });
      return { id: user.id, username: user.username, role, token: await app.login(user.username) };
    }),
  );
  return Object.fromEntries(members.map((member) => [member.role, member])) as Team;
}

/** One signed-in user of every role, made before the file's tests (after `app` has started). */
export const useTeam = (app: TestApp): Team => madeBeforeAll('The team', () => team(app));

export async function technique(
  app: TestApp,
  ttpId = `T${9000 + Math.floor(Math.random() * 999)}.${randomBytes(2).toString('hex').slice(0, 3)}`,
) {
  return app.services.prisma.technique.create({ data: { ttpId, name: `Technique ${ttpId}`, tactic: 'Execution' } });
}

/** A campaign row to attach tests to (created directly: campaigns have their own tests). */
export async function campaign(app: TestApp, owner: Member) {
  return app.services.prisma.campaign.create({ data: { name: `Campaign ${randomBytes(3).toString('hex')}`, createdById: owner.id } });
}

export async function createTest(app: TestApp, who: Member, techniqueId: string, extra: Record<string, unknown> = {}) {
  const response = await app.api('POST', '/tests', {
    token: who.token,
    body: { technique_id: techniqueId, name: 'Encoded PowerShell', ...extra },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Record<string, any>;
}

/** The calls that bring a fresh draft to each state along the happy path. */
export const PATH_TO: Record<Exclude<TestState, 'draft'>, (team: Team) => [Member, string, unknown?][]> = {
  red_executing: (t) => [[t.red_tech, 'start-execution']],
  blue_evaluating: (t) => [...PATH_TO.red_executing(t), [t.red_tech, 'submit-red']],
  in_review: (t) => [
    ...PATH_TO.blue_evaluating(t),
    [t.blue_tech, 'PATCH blue', { detection_result: 'detected', blue_summary: 'Alert fired' }],
    [t.blue_tech, 'submit-blue'],
  ],
  validated: (t) => [
    ...PATH_TO.in_review(t),
    [t.red_lead, 'validate-red', { red_validation_status: 'approved' }],
    [t.blue_lead, 'validate-blue', { blue_validation_status: 'approved' }],
  ],
  rejected: (t) => [
    ...PATH_TO.in_review(t),
    [t.blue_lead, 'validate-blue', { blue_validation_status: 'rejected', blue_validation_notes: 'No alert' }],
  ],
};

/** Drives a draft test through REST to `state`. */
export async function advance(app: TestApp, t: Team, id: string, state: Exclude<TestState, 'draft'>) {
  for (const [who, step, body] of PATH_TO[state](t)) {
    const response = step.startsWith('PATCH ')
      ? await app.api('PATCH', `/tests/${id}/${step.slice(6)}`, { token: who.token, body })
      : await app.api('POST', `/tests/${id}/${step}`, { token: who.token, body });
    expect(response.status, `${step}: ${JSON.stringify(response.body)}`).toBe(200);
  }
  const test = await app.services.prisma.test.findUniqueOrThrow({ where: { id } });
  expect(test.state).toBe(state);
  return test;
}

export const activeUserIds = async (app: TestApp, roles: Role[]) =>
  (await app.services.prisma.user.findMany({ where: { role: { in: roles }, isActive: true }, select: { id: true } }))
    .map((user) => user.id)
    .sort();

/** Who got a notification about this test for this event, once the event consumers have caught up. */
export async function notified(app: TestApp, testId: string, event: string): Promise<string[]> {
  await eventsSettled(app);
  const rows = await app.services.prisma.notification.findMany({ where: { entityId: testId, event }, select: { userId: true } });
  return rows.map((row) => row.userId).sort();
}

export const auditActions = async (app: TestApp, testId: string) =>
  (await app.services.prisma.auditLog.findMany({ where: { entityType: 'test', entityId: testId }, orderBy: { timestamp: 'asc' } })).map(
    (row) => row.action,
  );

export const statusOf = async (app: TestApp, techniqueId: string) =>
  (await app.services.prisma.technique.findUniqueOrThrow({ where: { id: techniqueId } })).statusGlobal;
