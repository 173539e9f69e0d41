import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { evaluateRules } from './service.ts';

export const EVALUATE_ALERTS_JOB = 'evaluate-alerts';

/** Events within one window of this length share one evaluation, run at the window's end. */
export const ALERT_EVALUATION_WINDOW_MS = 5_000;

export const alertsJobs: JobDefinition[] = [
  {
    name: EVALUATE_ALERTS_JOB,
    queue: QueueName.maintenance,
    description: 'Evaluate every enabled alert rule (expiries happen with time, not with events)',
    repeat: { every: 15 * 60_000 },
    // Evaluations queued in memory die with their process: a process that starts catches up on any it missed.
    runAtStart: true,
    async run(data, services) {
      if (data.atStart && services.jobs.durable) return { fired: 0 };
      if (!(await services.prisma.alertRule.findFirst({ where: { enabled: true }, select: { id: true } }))) return { fired: 0 };
      const result = await evaluateRules(services, SYSTEM_ACTOR);
      return { fired: result.fired };
    },
  },
];
