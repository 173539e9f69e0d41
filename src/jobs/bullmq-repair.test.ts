import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { BullmqJobRunner } from './bullmq.ts';
import { QueueName, type DynamicSchedule, type JobDefinition } from './types.ts';

describe('registering again the schedules Redis does not hold', () => {
  const app = useTestApp();

  it('registers a missing one, and not one whose record was unscheduled while the check ran', async () => {
    const { services } = app;
    // The records that want a daily schedule; `unscheduleDuringRead` changes them while the check reads them.
    let wanted: string[] = [];
    let unscheduleDuringRead: (() => Promise<void>) | undefined;
    const daily = (id: string): DynamicSchedule => ({ id, repeat: { pattern: '0 3 * * *', tz: 'UTC' }, data: {} });
    const definition: JobDefinition = {
      name: 'probe',
      queue: QueueName.maintenance,
      description: 'A probe',
      async schedules() {
        const answer = wanted.map(daily);
        const change = unscheduleDuringRead;
        unscheduleDuringRead = undefined;
        await change?.();
        return answer;
      },
      run: async () => ({}),
    };
    const runner = new BullmqJobRunner(new Map([[definition.name, definition]]), () => services, services.log, {
      connection: services.redis!,
      prefix: `${services.config.REDIS_PREFIX}:repair`,
      process: false,
    });
    const held = async () => (await runner.status()).jobs.map((job) => job.id).sort();
    try {
      await runner.start();
      expect(await held()).toEqual([]);
      // Wanted and missing from Redis: registered.
      wanted = ['kept'];
      await runner.repairSchedules();
      expect(await held()).toEqual(['kept']);
      // Wanted when the check read it, then unscheduled (its change removing its schedule, as a save does after
      // its commit) before the check registered it: not registered again.
      wanted = ['kept', 'dropped'];
      unscheduleDuringRead = async () => {
        wanted = ['kept'];
        await runner.removeSchedule('dropped');
      };
      await runner.repairSchedules();
      expect(unscheduleDuringRead).toBeUndefined();
      expect(await held()).toEqual(['kept']);
    } finally {
      await runner.close();
    }
  });
});
