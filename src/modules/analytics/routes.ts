import type { Route } from '../../../rest-adapter/types.ts';
import { analyticsRoles } from './permissions.ts';

const STATS_S = 'count meanSeconds medianSeconds p90Seconds';
const STATS_H = 'count meanHours medianHours p90Hours';

export const analyticsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/analytics',
    tag: 'Metrics',
    summary:
      'Trend analytics per week (query period 30d|90d|1y): coverage %, validated techniques, tests executed, efficacy, MTTD, MTTR, alerts fired, detection confidence',
    roles: analyticsRoles.read,
    document: `query ($period: String) { analytics(period: $period) { period from to computedAt points {
      weekStart coveragePercentage validatedTechniques testsExecuted alertsFired detectionConfidence
      efficacy { tests detected partiallyDetected notDetected rate } mttd { ${STATS_S} } mttr { ${STATS_H} } } } }`,
  },
];
