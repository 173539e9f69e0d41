import { builder } from './builder.ts';
import '../modules/users/types.ts';
import '../modules/auth/resolvers.ts';
import '../modules/techniques/resolvers.ts';
import '../modules/notifications/resolvers.ts';
import '../modules/users/resolvers.ts';
import '../modules/api-keys/resolvers.ts';
import '../modules/audit/resolvers.ts';
import '../modules/system/resolvers.ts';

export const schema = builder.toSchema({ sortSchema: true });
