import { builder } from '../../graphql/builder.ts';
import { Role } from '../../generated/prisma/enums.ts';

export const RoleEnum = builder.enumType(Role, { name: 'Role' });

export const UserType = builder.prismaObject('User', {
  description: 'A person who signs in. Passwords are never exposed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    username: t.exposeString('username'),
    email: t.exposeString('email', { nullable: true }),
    role: t.expose('role', { type: RoleEnum }),
    isActive: t.exposeBoolean('isActive'),
    displayName: t.exposeString('displayName', { nullable: true }),
    mustChangePassword: t.exposeBoolean('mustChangePassword'),
    trackerAccountId: t.exposeString('trackerAccountId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
