import type { Route } from '../../../rest-adapter/types.ts';

export const scoresRoutes: Route[] = [];
