import type { JobDefinition } from '../../jobs/types.ts';

export const campaignsJobs: JobDefinition[] = [];
