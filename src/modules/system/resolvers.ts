import { Role } from '../../auth/roles.ts';
import { allow, anyone } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { systemRoles } from './permissions.ts';
import * as system from './service.ts';
import { HealthType, SchedulerStatusType } from './types.ts';

builder.queryFields((t) => ({
  health: t.field({
    type: HealthType,
    description: 'Health of the service and its dependencies (no sign-in needed; details for admins only).',
    authScopes: anyone,
    resolve: (_root, _args, context) => system.checkHealth(context.services, context.auth.principal?.role === Role.admin),
  }),
  schedulerStatus: t.field({
    type: SchedulerStatusType,
    authScopes: allow(systemRoles.scheduler),
    resolve: (_root, _args, context) => system.schedulerStatus(context.services),
  }),
}));
