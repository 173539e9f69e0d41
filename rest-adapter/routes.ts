import { apiKeyRoutes } from '../src/modules/api-keys/routes.ts';
import { auditRoutes } from '../src/modules/audit/routes.ts';
import { authRoutes } from '../src/modules/auth/routes.ts';
import { notificationRoutes } from '../src/modules/notifications/routes.ts';
import { systemRoutes } from '../src/modules/system/routes.ts';
import { techniqueRoutes } from '../src/modules/techniques/routes.ts';
import { userRoutes } from '../src/modules/users/routes.ts';
import type { Route } from './types.ts';

/** Every REST route of /api/v1: the one table behind the adapter, the OpenAPI document and the matrix test. */
export const routes: readonly Route[] = [...authRoutes, ...userRoutes, ...apiKeyRoutes, ...techniqueRoutes, ...notificationRoutes, ...auditRoutes, ...systemRoutes];
