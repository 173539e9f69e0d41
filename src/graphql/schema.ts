import { builder } from './builder.ts';
import '../modules/users/types.ts';
import '../modules/auth/resolvers.ts';
import '../modules/techniques/resolvers.ts';
import '../modules/notifications/resolvers.ts';

export const schema = builder.toSchema({ sortSchema: true });
