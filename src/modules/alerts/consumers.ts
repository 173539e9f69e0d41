import { defineConsumer } from '../../events/consumers.ts';
import { ALERT_EVALUATION_WINDOW_MS, EVALUATE_ALERTS_JOB } from './jobs.ts';

/**
 * Coverage or detection confidence moved: the alert rules are evaluated again, once per window however many
 * events came (a burst of validations makes one evaluation, not one each waiting on the others' lock).
 */
export const alertEvaluation = defineConsumer({
  name: 'alert-evaluation',
  events: ['coverage.changed', 'detection.changed', 'osint.items_added'],
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
