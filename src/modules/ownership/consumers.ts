import { defineConsumer } from '../../events/consumers.ts';
import { regenerateQueue } from './revalidation.ts';

/** A recorded infrastructure change puts the techniques it touches in the revalidation queue. */
export const revalidationAfterChange = defineConsumer({
  name: 'revalidation-after-change',
  events: ['detection.changed'],
  async handle(event, uow) {
    if (event.payload.reason === 'infrastructure_change') await regenerateQueue(uow);
  },
});
