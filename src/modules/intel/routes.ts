import type { Route } from '../../../rest-adapter/types.ts';

export const intelRoutes: Route[] = [];
