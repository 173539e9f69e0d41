import type { Wiring } from '../src/services.ts';
import { eventConsumers } from './consumers.ts';
import { jobDefinitions } from './definitions.ts';

/** What the entry points plug into the services: the background jobs and the consumers of domain events. */
export const wiring: Wiring = { jobs: jobDefinitions, consumers: eventConsumers };
