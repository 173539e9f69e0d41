import { defineConsumer } from '../../events/consumers.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { generateQueue } from '../ownership/revalidation.ts';
import { recordTestValidations } from '../detection-lifecycle/service.ts';
import { evaluateRules } from './service.ts';

/** A validated test with a detection leaves a validation per active asset linked to its technique. */
export const testValidationRecords = defineConsumer({
  name: 'detection-validations',
  events: ['test.validated'],
  async handle(event, uow, services) {
    await recordTestValidations(uow, services, event.payload.testId);
  },
});

const EVALUATE_ALERTS_JOB = 'evaluate-alerts';

/** Events within one window of this length share one evaluation, run at the window's end. */
export const ALERT_EVALUATION_WINDOW_MS = 5_000;

/**
 * Coverage or detection confidence moved: the alert rules are evaluated again, once per window however many
 * events came (a burst of validations makes one evaluation, not one each waiting on the others' lock).
 */
export const alertEvaluation = defineConsumer({
  name: 'alert-evaluation',
  events: ['coverage.changed', 'detection.changed'],
  async handle(_event, uow, services) {
    if (!(await uow.tx.alertRule.findFirst({ where: { enabled: true }, select: { id: true } }))) return;
    const now = Date.now();
    const window = Math.floor(now / ALERT_EVALUATION_WINDOW_MS);
    await services.jobs.enqueue(
      EVALUATE_ALERTS_JOB,
      {},
      { jobId: `${EVALUATE_ALERTS_JOB}-${window}`, delayMs: (window + 1) * ALERT_EVALUATION_WINDOW_MS - now },
    );
  },
});

export const detectionOperationsJobs: JobDefinition[] = [
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
  {
    name: 'generate-revalidation-queue',
    queue: QueueName.maintenance,
    description: 'Rebuild the revalidation queue from expiries, invalidations, infrastructure changes and stale coverage',
    repeat: { pattern: '0 3 * * *' },
    async run(_data, services) {
      return generateQueue(services, SYSTEM_ACTOR);
    },
  },
];
