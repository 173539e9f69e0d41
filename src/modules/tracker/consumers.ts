import { defineConsumer } from '../../events/consumers.ts';
import { reopenAfterFailedRetest } from './sync.ts';

const GAPS = new Set(['not_detected', 'partially_detected']);

/** A retest of a fixed issue that fails (rejected, or validated as not or partially detected) reopens the same issue. */
export const trackerRetestOutcomes = defineConsumer({
  name: 'tracker-retest-outcomes', // keys the processed-events ledger: never rename
  events: ['test.state_changed', 'test.validated'],
  async handle(event, uow, services) {
    if (event.type === 'test.state_changed' && event.payload.to === 'rejected') {
      await reopenAfterFailedRetest(uow, services, event.payload.testId, 'rejected in review');
    } else if (event.type === 'test.validated' && GAPS.has(event.payload.detectionResult ?? '')) {
      await reopenAfterFailedRetest(uow, services, event.payload.testId, (event.payload.detectionResult ?? '').replace('_', ' '));
    }
  },
});
