import type { Db } from './client.ts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { followSchedule, scheduleIdOf } from '../modules/campaigns/schedule.ts';
import { inTransaction, SYSTEM_ACTOR } from './unit-of-work.ts';

const app = useTestApp();

const scheduled = async (id: string) => (await app.services.jobs.status()).jobs.some((job) => job.id === id);

/** A recurring campaign as a row; whether the scheduler holds it is up to the transaction under test. */
async function recurringCampaign(name: string, db: Db = app.services.prisma) {
  const owner = await app.createUser({ role: 'red_lead' });
  return db.campaign.create({
    data: { name, type: 'regression', status: 'active', recurrence: '0 0 1 1 *', createdById: owner.id },
  });
}

class Abort extends Error {}

describe('after-commit work', () => {
  it('runs after the commit, in registration order, and sees the committed change', async () => {
    const order: string[] = [];
    const user = await app.createUser();
    await inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
      await uow.tx.user.update({ where: { id: user.id }, data: { email: 'after@commit.example' } });
      uow.afterCommit(async () => {
        const seen = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
        order.push(`first saw ${seen.email}`);
      });
      uow.afterCommit(async () => {
        order.push('second');
      });
      order.push('transaction body');
    });
    expect(order).toEqual(['transaction body', 'first saw after@commit.example', 'second']);
  });

  it('never runs when the transaction rolls back', async () => {
    let ran = false;
    await expect(
      inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
        uow.afterCommit(async () => {
          ran = true;
        });
        throw new Abort('rolled back');
      }),
    ).rejects.toBeInstanceOf(Abort);
    expect(ran).toBe(false);
  });

  it('keeps the committed change when it fails, runs the rest, and reports the first failure', async () => {
    const user = await app.createUser();
    let later = false;
    await expect(
      inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
        await uow.tx.user.update({ where: { id: user.id }, data: { email: 'kept@commit.example' } });
        uow.afterCommit(async () => {
          throw new Abort('queue refused');
        });
        uow.afterCommit(async () => {
          later = true;
        });
      }),
    ).rejects.toThrow('queue refused');
    expect(later).toBe(true);
    expect((await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe('kept@commit.example');
  });
});

describe('schedules follow only committed changes', () => {
  it('a rolled-back transaction leaves no schedule behind', async () => {
    // The campaign is rolled back with the schedule, so no periodic reconciliation can register it meanwhile.
    let id = '';
    await expect(
      inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
        const campaign = await recurringCampaign('Rolled back', uow.tx);
        id = campaign.id;
        followSchedule(app.services, uow, campaign);
        throw new Abort('a later step failed');
      }),
    ).rejects.toBeInstanceOf(Abort);
    expect(await scheduled(scheduleIdOf(id))).toBe(false);
  });

  it('a committed transaction registers its schedule (Redis-backed scheduler)', async () => {
    expect(app.services.jobs.kind).toBe('bullmq');
    const campaign = await recurringCampaign('Committed');
    await inTransaction(app.services, SYSTEM_ACTOR, async (uow) => followSchedule(app.services, uow, campaign));
    expect(await scheduled(scheduleIdOf(campaign.id))).toBe(true);
  });

  it('periodic reconciliation repairs a schedule whose after-commit update was lost', async () => {
    const campaign = await recurringCampaign('Lost update');
    expect(await scheduled(scheduleIdOf(campaign.id))).toBe(false);
    await app.services.jobs.reconcileSchedules();
    expect(await scheduled(scheduleIdOf(campaign.id))).toBe(true);
    await app.services.prisma.campaign.update({ where: { id: campaign.id }, data: { status: 'completed' } });
    await app.services.jobs.reconcileSchedules();
    expect(await scheduled(scheduleIdOf(campaign.id))).toBe(false);
  });
});
