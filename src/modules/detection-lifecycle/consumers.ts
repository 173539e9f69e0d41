import { defineConsumer } from '../../events/consumers.ts';
import { recordTestValidations } from './service.ts';

/** A validated test with a detection leaves a validation per active asset linked to its technique. */
export const testValidationRecords = defineConsumer({
  name: 'detection-validations',
  events: ['test.validated'],
  async handle(event, uow, services) {
    await recordTestValidations(uow, services, event.payload.testId);
  },
});
