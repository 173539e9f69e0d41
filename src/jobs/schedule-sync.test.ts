import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { createLogger } from '../logger.ts';
import type { Services } from '../services.ts';
import { BullmqJobRunner } from './bullmq.ts';
import { InProcessJobRunner } from './in-process.ts';
import { QueueName, type DynamicSchedule, type JobDefinition, type JobRunner } from './types.ts';

/**
 * A job whose records want a daily schedule each (`wanted`). `duringRead` runs once while a pass reads them, after
 * the read took its answer: the change a save commits meanwhile, with the schedule write it makes after its commit.
 */
interface Probe {
  wanted: string[];
  duringRead?: () => Promise<void>;
  definition: JobDefinition;
}

function probeJob(): Probe {
  const probe: Probe = {
    wanted: [],
    definition: {
      name: 'probe',
      queue: QueueName.maintenance,
      description: 'A probe',
      async schedules() {
        const answer = probe.wanted.map(daily);
        const change = probe.duringRead;
        probe.duringRead = undefined;
        await change?.();
        return answer;
      },
      run: async () => ({}),
    },
  };
  return probe;
}
const daily = (id: string): DynamicSchedule => ({ id, repeat: { pattern: '0 3 * * *', tz: 'UTC' }, data: {} });
const heldBy = async (runner: JobRunner) => (await runner.status()).jobs.map((job) => job.id).sort();

/** What every runner's reconciliation (at start and every ten minutes) must do while saves run beside it. */
function reconciliationCases(startRunner: (definition: JobDefinition) => Promise<JobRunner>) {
  it('registers what is wanted and removes what no record wants', async () => {
    const probe = probeJob();
    probe.wanted = ['kept'];
    const runner = await startRunner(probe.definition);
    try {
      expect(await heldBy(runner)).toEqual(['kept']);
      await runner.upsertSchedule('stale', 'probe', daily('stale').repeat);
      await runner.reconcileSchedules();
      expect(await heldBy(runner)).toEqual(['kept']);
    } finally {
      await runner.close();
    }
  });

  it('keeps a schedule a save registered while it read the database, and does not restore one a save removed', async () => {
    const probe = probeJob();
    probe.wanted = ['kept', 'dropped'];
    const runner = await startRunner(probe.definition);
    try {
      expect(await heldBy(runner)).toEqual(['dropped', 'kept']);
      // A record created and one unscheduled after the pass read the database (each save writes its own schedule).
      probe.duringRead = async () => {
        probe.wanted = ['kept', 'created'];
        await runner.upsertSchedule('created', 'probe', daily('created').repeat);
        await runner.removeSchedule('dropped');
      };
      await runner.reconcileSchedules();
      expect(probe.duringRead).toBeUndefined();
      expect(await heldBy(runner)).toEqual(['created', 'kept']);
    } finally {
      await runner.close();
    }
  });
}

describe('schedules on Redis (BullMQ)', () => {
  const app = useTestApp();
  let runners = 0;
  const startBullmq = async (definition: JobDefinition) => {
    const { services } = app;
    const runner = new BullmqJobRunner(new Map([[definition.name, definition]]), () => services, services.log, {
      connection: services.redis!,
      prefix: `${services.config.REDIS_PREFIX}:sync-${(runners += 1)}`,
      process: false,
    });
    await runner.start();
    return runner;
  };

  reconciliationCases(startBullmq);

  it('registers again a schedule Redis lost, and not one whose record was unscheduled while the check ran', async () => {
    const probe = probeJob();
    const runner = await startBullmq(probe.definition);
    try {
      expect(await heldBy(runner)).toEqual([]);
      // Wanted and missing from Redis: registered.
      probe.wanted = ['kept'];
      await runner.repairSchedules();
      expect(await heldBy(runner)).toEqual(['kept']);
      // Wanted when the check read it, then unscheduled (its change removing its schedule, as a save does after
      // its commit) before the check registered it: not registered again.
      probe.wanted = ['kept', 'dropped'];
      probe.duringRead = async () => {
        probe.wanted = ['kept'];
        await runner.removeSchedule('dropped');
      };
      await runner.repairSchedules();
      expect(probe.duringRead).toBeUndefined();
      expect(await heldBy(runner)).toEqual(['kept']);
    } finally {
      await runner.close();
    }
  });
});

describe('schedules in the process (embedded)', () => {
  reconciliationCases(async (definition) => {
    const runner = new InProcessJobRunner(new Map([[definition.name, definition]]), () => ({}) as Services, createLogger('silent'));
    await runner.start();
    return runner;
  });
});
