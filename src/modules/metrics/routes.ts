import type { Route } from '../../../rest-adapter/types.ts';

export const metricsRoutes: Route[] = [];
