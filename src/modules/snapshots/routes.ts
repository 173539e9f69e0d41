import type { Route } from '../../../rest-adapter/types.ts';

export const snapshotsRoutes: Route[] = [];
