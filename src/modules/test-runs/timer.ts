import type { Principal } from '../../auth/access.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import type { Test, TestState } from '../../generated/prisma/client.ts';
import type { Services } from '../../services.ts';
import { testLifecycle, TIMED_STATES } from './state-machine.ts';
import { lockTest, type TestQuery } from './store.ts';

type TimerFields = Pick<Test, 'elapsedMs' | 'timerStartedAt'>;

/** Milliseconds on the clock at `now`: the stored total plus the running part. */
export function elapsedMsOf(test: TimerFields, now = Date.now()): number {
  const running = test.timerStartedAt ? Math.max(0, now - test.timerStartedAt.getTime()) : 0;
  return Number(test.elapsedMs) + running;
}

/** The columns that stop a running timer at `now`, adding the running part to the total exactly once. */
export function stopped(test: TimerFields, now: Date): Partial<TimerFields> {
  if (!test.timerStartedAt) return {};
  return { elapsedMs: BigInt(elapsedMsOf(test, now.getTime())), timerStartedAt: null };
}

export function started(test: TimerFields, now: Date): Partial<TimerFields> {
  return test.timerStartedAt ? {} : { timerStartedAt: now };
}

/** Automatic timer rule of a state change: entering a working state starts it, leaving them stops it. */
export function timerOnStateChange(test: TimerFields & { state: TestState }, next: TestState, now: Date) {
  if (next === test.state) return { change: {}, timer: null };
  if (TIMED_STATES.includes(next) && !test.timerStartedAt) return { change: started(test, now), timer: 'started' as const };
  if (!TIMED_STATES.includes(next) && test.timerStartedAt) return { change: stopped(test, now), timer: 'stopped' as const };
  return { change: {}, timer: null };
}

/** Pauses the timer; pausing a stopped timer changes nothing. */
export function pauseTimer(services: Services, principal: Principal, id: string, query: TestQuery = {}) {
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockTest(uow, id);
    const { test, now } = locked;
    if (test.timerStartedAt) {
      const change = stopped(test, now);
      await uow.tx.test.update({ where: { id }, data: { ...change, version: { increment: 1 } } });
      const details = { elapsed_ms: Number(change.elapsedMs), ran_ms: now.getTime() - test.timerStartedAt.getTime() };
      await locked.record({ kind: 'timer_paused', details });
      await uow.audit({ action: 'pause_test_timer', entityType: 'test', entityId: id, details });
      uow.emit('test.changed', { testId: id, campaignId: test.campaignId, change: 'timer_paused' });
    }
    return uow.tx.test.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Resumes the timer in a working state; resuming a running timer changes nothing. */
export function resumeTimer(services: Services, principal: Principal, id: string, query: TestQuery = {}) {
  return inTransaction(services, principal, async (uow) => {
    const locked = await lockTest(uow, id);
    const { test, now } = locked;
    testLifecycle.assertIn('TIMER_NOT_ALLOWED', 'Resuming the timer', test.state, TIMED_STATES);
    if (!test.timerStartedAt) {
      await uow.tx.test.update({ where: { id }, data: { timerStartedAt: now, version: { increment: 1 } } });
      const details = { elapsed_ms: Number(test.elapsedMs) };
      await locked.record({ kind: 'timer_resumed', details });
      await uow.audit({ action: 'resume_test_timer', entityType: 'test', entityId: id, details });
      uow.emit('test.changed', { testId: id, campaignId: test.campaignId, change: 'timer_resumed' });
    }
    return uow.tx.test.findUniqueOrThrow({ ...query, where: { id } });
  });
}
