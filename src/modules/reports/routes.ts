import type { Route } from '../../../rest-adapter/types.ts';

export const reportsRoutes: Route[] = [];
