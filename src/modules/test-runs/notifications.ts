import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { defineConsumer } from '../../events/consumers.ts';
import type { Test, TestState } from '../../generated/prisma/client.ts';
import { notifyUsers } from '../notifications/service.ts';
import { STATES } from './states.ts';

/** Notifies the spec's recipients of a test entering `state` (honouring their preferences); returns who was notified. */
export async function notifyStateEntered(uow: UnitOfWork, test: Test, ttpId: string, state: TestState): Promise<string[]> {
  const rule = STATES[state].entry;
  if (!rule) return [];
  const recipients =
    rule.recipients === 'creator'
      ? [test.createdById]
      : (await uow.tx.user.findMany({ where: { role: { in: [...rule.recipients] }, isActive: true }, select: { id: true } })).map(
          (user) => user.id,
        );
  return notifyUsers(uow, recipients, {
    event: rule.event,
    title: rule.title,
    message: `Test "${test.name}" (${ttpId}) ${rule.message}`,
    entityType: 'test',
    entityId: test.id,
  });
}

/** The spec's notices of a test entering a state, sent once the state change has committed. */
export const testStateNotices = defineConsumer({
  name: 'test-state-notices',
  events: ['test.state_changed'],
  async handle({ payload }, uow) {
    const test = await uow.tx.test.findUnique({ where: { id: payload.testId }, include: { technique: { select: { ttpId: true } } } });
    if (!test) return; // deleted since: nobody to tell about it
    await notifyStateEntered(uow, test, test.technique.ttpId, payload.to as TestState);
  },
});
