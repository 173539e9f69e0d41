import { describe, expect, it } from 'vitest';
import type { Services } from '../services.ts';
import { delayUntil, lostRows, SWEEP_GRACE_MS } from './queue-rows.ts';

const runner = (durable: boolean) => ({ jobs: { durable } }) as unknown as Services;
const now = Date.parse('2026-12-01T12:00:00Z');
const unleased = { OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(now) } }] };

describe('which pending rows a sweep queues again', () => {
  it('on every periodic run, and at the start of a durable runner: those past due by the grace period, unleased', () => {
    const overdue = { status: 'pending', nextAttemptAt: { lt: new Date(now - SWEEP_GRACE_MS) }, ...unleased };
    expect(lostRows(runner(true), false, now)).toEqual(overdue);
    expect(lostRows(runner(false), false, now)).toEqual(overdue);
    // Redis kept the jobs of a process that stopped: queueing them again at start would only duplicate them.
    expect(lostRows(runner(true), true, now)).toEqual(overdue);
  });

  it('at the start of a runner that keeps jobs in memory: every pending row, due or not, leased or not', () => {
    expect(lostRows(runner(false), true, now)).toEqual({ status: 'pending' });
  });

  it('queues each row for when its next attempt is due and its lease has run out (with a second to spare)', () => {
    const at = (offsetMs: number) => new Date(now + offsetMs);
    expect(delayUntil({ id: 'a', nextAttemptAt: at(5_000), leaseUntil: null }, now)).toEqual({ id: 'a', delayMs: 5_000 });
    expect(delayUntil({ id: 'b', nextAttemptAt: at(-5_000), leaseUntil: null }, now)).toEqual({ id: 'b', delayMs: 0 });
    expect(delayUntil({ id: 'c', nextAttemptAt: null, leaseUntil: at(-5_000) }, now)).toEqual({ id: 'c', delayMs: 0 });
    expect(delayUntil({ id: 'd', nextAttemptAt: at(-5_000), leaseUntil: at(12_000) }, now)).toEqual({ id: 'd', delayMs: 13_000 });
    expect(delayUntil({ id: 'e', nextAttemptAt: at(20_000), leaseUntil: at(12_000) }, now)).toEqual({ id: 'e', delayMs: 20_000 });
  });
});
