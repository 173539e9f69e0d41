import { defineConsumer } from '../../events/consumers.ts';
import { SYSTEM_ACTOR } from '../../db/unit-of-work.ts';
import { QueueName, type JobDefinition } from '../../jobs/types.ts';
import { generateQueue } from '../ownership/revalidation.ts';
import { recordTestValidations } from '../detection-lifecycle/service.ts';
import { evaluateIn, evaluateRules } from './service.ts';

/** A validated test with a detection leaves a validation per active asset linked to its technique. */
export const testValidationRecords = defineConsumer({
  name: 'detection-validations',
  events: ['test.validated'],
  async handle(event, uow, services) {
    await recordTestValidations(uow, services, event.payload.testId);
  },
});

/** Coverage or detection confidence moved: the alert rules are evaluated again (in the consumer's transaction). */
export const alertEvaluation = defineConsumer({
  name: 'alert-evaluation',
  events: ['coverage.changed', 'detection.changed'],
  async handle(_event, uow) {
    await evaluateIn(uow);
  },
});

export const detectionOperationsJobs: JobDefinition[] = [
  {
    name: 'evaluate-alerts',
    queue: QueueName.maintenance,
    description: 'Evaluate every enabled alert rule (expiries happen with time, not with events)',
    repeat: { every: 15 * 60_000 },
    async run(_data, services) {
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
