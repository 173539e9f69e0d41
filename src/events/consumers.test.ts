import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { eventsSettled } from '../../test/helpers/events.ts';
import { createTest, team, technique } from '../../test/helpers/test-runs.ts';
import { eventConsumers } from '../../workers/consumers.ts';
import { event } from './bus.ts';
import { consumeOnce, defineConsumer } from './consumers.ts';
import type { DomainEvent } from './types.ts';

const app = useTestApp();

/** A consumer that records in the database what it applied, optionally failing its first attempts. */
function recordingConsumer(name: string, failures = 0) {
  let attempts = 0;
  return defineConsumer({
    name,
    events: ['risk.computed'],
    async handle(received, uow) {
      attempts += 1;
      await uow.tx.auditLog.create({ data: { username: name, action: 'consumed', entityType: 'event', entityId: received.id } });
      if (attempts <= failures) throw new Error(`attempt ${attempts} fails`);
    },
  });
}

const applied = (name: string, eventId: string) =>
  app.services.prisma.auditLog.count({ where: { username: name, action: 'consumed', entityId: eventId } });

describe('event consumers', () => {
  it('apply an event once, however often it is delivered', async () => {
    const consumer = recordingConsumer('once');
    const computed = event('risk.computed', { profiles: 1 }, null) as DomainEvent;
    const outcomes = await Promise.all([1, 2, 3].map(() => consumeOnce(app.services, consumer, computed)));
    expect(outcomes.sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(await applied('once', computed.id)).toBe(1);
  });

  it('leave no trace of a failed attempt, so the retry applies it', async () => {
    const consumer = recordingConsumer('retried', 1);
    const computed = event('risk.computed', { profiles: 2 }, null) as DomainEvent;
    await expect(consumeOnce(app.services, consumer, computed)).rejects.toThrow('attempt 1 fails');
    expect(await applied('retried', computed.id)).toBe(0);
    expect(await consumeOnce(app.services, consumer, computed)).toBe('applied');
    expect(await applied('retried', computed.id)).toBe(1);
  });

  it('run as queued jobs after commit: a dispatched event reaches each interested consumer once, even dispatched twice', async () => {
    const t = await team(app);
    const { id: techniqueId } = await technique(app);
    const test = await createTest(app, t.red_lead, techniqueId);
    const rejected = event(
      'test.state_changed',
      { testId: test.id, techniqueId, campaignId: null, from: 'in_review', to: 'rejected' },
      null,
    );
    app.services.consumers.dispatch([rejected]);
    app.services.consumers.dispatch([rejected]);
    await eventsSettled(app);
    const notices = await app.services.prisma.notification.findMany({ where: { entityId: test.id, event: 'test_rejected' } });
    expect(notices.map((notice) => notice.userId)).toEqual([t.red_lead.id]);
    expect(eventConsumers.filter((consumer) => consumer.events.includes('test.state_changed')).map((consumer) => consumer.name)).toEqual([
      'in-app-notices',
      'webhook-deliveries',
      'tracker-retest-outcomes',
    ]);
  });
});
