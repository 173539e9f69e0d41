import type { Route } from '../../../rest-adapter/types.ts';

export const riskRoutes: Route[] = [];
