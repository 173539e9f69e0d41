import type { JobDefinition } from '../../jobs/types.ts';

export const dataSourcesJobs: JobDefinition[] = [];
