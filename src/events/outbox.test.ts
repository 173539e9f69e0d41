import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { createTestDatabase } from '../../test/helpers/database.ts';
import { wiring } from '../../workers/wiring.ts';
import { createServices } from '../composition.ts';
import { loadConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { ConsumerDispatcher, defineConsumer } from './consumers.ts';
import { eventsSettled } from '../../test/helpers/events.ts';
import { createTest, team, technique } from '../../test/helpers/test-runs.ts';
import { inTransaction, SYSTEM_ACTOR } from '../db/unit-of-work.ts';
import { event } from './bus.ts';
import { OUTBOX_MAX_ATTEMPTS, OUTBOX_RETENTION_MS, OutboxRelay, recordEvents } from './outbox.ts';
import type { DomainEvent } from './types.ts';

const app = useTestApp();

const rowsAbout = (testId: string) =>
  app.services.prisma.outboxEvent.findMany({ where: { type: 'test.state_changed', payload: { path: ['testId'], equals: testId } } });

describe('the transactional outbox', () => {
  it('records a committed change’s consumed events in its transaction, none of a rolled-back one, and marks them dispatched once queued', async () => {
    const t = await team(app);
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    const started = await app.api('POST', `/tests/${test.id}/start-execution`, { token: t.red_lead.token });
    expect(started.status).toBe(200);
    const [row] = await rowsAbout(test.id);
    expect(row).toMatchObject({ type: 'test.state_changed', payload: { testId: test.id, from: 'draft', to: 'red_executing' } });
    await eventsSettled(app);
    expect(await app.services.prisma.outboxEvent.findUniqueOrThrow({ where: { id: row!.id } })).toMatchObject({
      status: 'dispatched',
      attempts: 0,
      dispatchedAt: expect.any(Date),
    });

    const ghost = randomUUID();
    const rolledBack = inTransaction(app.services, SYSTEM_ACTOR, async (uow) => {
      uow.emit('test.state_changed', { testId: ghost, techniqueId, campaignId: null, from: 'draft', to: 'red_executing' });
      throw new Error('the change fails');
    });
    await expect(rolledBack).rejects.toThrow('the change fails');
    expect(await rowsAbout(ghost)).toEqual([]);

    const unconsumed = await inTransaction(app.services, SYSTEM_ACTOR, async (uow) => uow.emit('risk.computed', { profiles: 3 }));
    expect(unconsumed).toBeUndefined();
    expect(await app.services.prisma.outboxEvent.count({ where: { type: 'risk.computed' } })).toBe(0);
  });

  it('relays an event its committing process never handed over: each consumer applies it once, however many relays race', async () => {
    const t = await team(app);
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    const stranded = event(
      'test.state_changed',
      { testId: test.id, techniqueId, campaignId: null, from: 'in_review', to: 'rejected' },
      null,
    );
    await app.services.prisma.$transaction((tx) => recordEvents(tx, [stranded as DomainEvent]));
    await app.services.prisma.outboxEvent.update({ where: { id: stranded.id }, data: { nextAttemptAt: new Date(Date.now() - 1_000) } });

    const relays = [
      app.services.outbox,
      ...[1, 2].map(() => new OutboxRelay(app.services.prisma, app.services.consumers, app.services.log)),
    ];
    const relayed = await Promise.all(relays.map((relay) => relay.relay()));
    expect(relayed.reduce((sum, count) => sum + count, 0)).toBe(1);
    await eventsSettled(app);

    const notices = await app.services.prisma.notification.findMany({ where: { entityId: test.id, event: 'test_rejected' } });
    expect(notices.map((notice) => notice.userId)).toEqual([t.red_lead.id]);
    expect(
      await app.services.prisma.processedEvent.findMany({ where: { eventId: stranded.id }, orderBy: { consumer: 'asc' } }),
    ).toMatchObject([{ consumer: 'in-app-notices' }, { consumer: 'tracker-retest-outcomes' }, { consumer: 'webhook-deliveries' }]);
    expect(await app.services.prisma.outboxEvent.findUniqueOrThrow({ where: { id: stranded.id } })).toMatchObject({
      status: 'dispatched',
      attempts: 1,
    });
  });

  it('deletes handed-over events after the retention period and keeps those not yet handed over', async () => {
    const old = new Date(Date.now() - OUTBOX_RETENTION_MS - 60_000);
    const [done, waiting] = [randomUUID(), randomUUID()];
    const row = (id: string, status: 'dispatched' | 'pending') => ({
      id,
      type: 'risk.computed',
      payload: { profiles: 1 },
      occurredAt: old,
      status,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await app.services.prisma.outboxEvent.createMany({ data: [row(done, 'dispatched'), row(waiting, 'pending')] });
    await new OutboxRelay(app.services.prisma, app.services.consumers, app.services.log).relay();
    const left = await app.services.prisma.outboxEvent.findMany({ where: { id: { in: [done, waiting] } }, select: { id: true } });
    expect(left).toEqual([{ id: waiting }]);
  });
});

describe('the outbox with the in-process runner (no Redis)', () => {
  it('keeps an event pending until its consumers applied it, backing off, and gives it up after the last attempt', async () => {
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'violet-outbox-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
    });
    const services = await createServices(config, createLogger('silent'), 'api', wiring);
    try {
      expect(services.jobs.durable).toBe(false);
      const failing = defineConsumer({
        name: 'never-applies',
        events: ['risk.computed'],
        async handle() {
          throw new Error('the consumer fails');
        },
      });
      const relay = new OutboxRelay(services.prisma, new ConsumerDispatcher([failing], () => services, services.log), services.log);
      const computed = event('risk.computed', { profiles: 4 }, null) as DomainEvent;
      await services.prisma.$transaction((tx) => recordEvents(tx, [computed]));
      const due = { nextAttemptAt: new Date(Date.now() - 1_000) };
      await services.prisma.outboxEvent.update({ where: { id: computed.id }, data: due });

      expect(await relay.relay()).toBe(1);
      const retried = await services.prisma.outboxEvent.findUniqueOrThrow({ where: { id: computed.id } });
      expect(retried).toMatchObject({ status: 'pending', attempts: 1 });
      expect(retried.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

      await services.prisma.outboxEvent.update({ where: { id: computed.id }, data: { ...due, attempts: OUTBOX_MAX_ATTEMPTS - 1 } });
      expect(await relay.relay()).toBe(1);
      expect(await services.prisma.outboxEvent.findUniqueOrThrow({ where: { id: computed.id } })).toMatchObject({
        status: 'abandoned',
        attempts: OUTBOX_MAX_ATTEMPTS,
        dispatchedAt: null,
      });
      expect(await services.prisma.processedEvent.count({ where: { eventId: computed.id } })).toBe(0);
    } finally {
      await services.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
