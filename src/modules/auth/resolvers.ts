import { anyone, signedIn } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { principalOf } from '../../graphql/context.ts';
import { Roles, type Role } from '../../auth/roles.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { RoleEnum } from '../users/types.ts';
import * as auth from './service.ts';

interface RoleSet {
  name: string;
  roles: readonly Role[];
}

const ROLE_SETS: RoleSet[] = Object.entries(Roles).map(([name, roles]) => ({ name, roles }));

const RoleSetType = builder.objectRef<RoleSet>('RoleSet').implement({
  description: "A named set of roles the service's access rules use (e.g. admin, leads, red), so that clients never copy them.",
  fields: (t) => ({
    name: t.exposeString('name'),
    roles: t.field({ type: [RoleEnum], resolve: (set) => [...set.roles] }),
  }),
});

const SessionType = builder.objectRef<auth.Session>('Session').implement({
  description: 'A signed session token (JWT) to send as `Authorization: Bearer <accessToken>`.',
  fields: (t) => ({
    accessToken: t.exposeString('accessToken'),
    tokenType: t.exposeString('tokenType'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  fields: (t) => ({
    currentPassword: t.string({ required: true }),
    newPassword: t.string({ required: true, description: '12 to 256 characters, not the username.' }),
  }),
});

builder.queryFields((t) => ({
  roleSets: t.field({
    type: [RoleSetType],
    description: 'The named role sets of the access rules, e.g. to show a page only to the roles the server lets through.',
    authScopes: signedIn,
    complexity: cappedListCost(ROLE_SETS.length),
    resolve: () => ROLE_SETS,
  }),
  me: t.prismaField({
    type: 'User',
    description: 'The signed-in user (also while a password change is pending).',
    authScopes: signedIn,
    resolve: (query, _root, _args, context) =>
      context.services.prisma.user.findUniqueOrThrow({ ...query, where: { id: principalOf(context).userId } }),
  }),
}));

builder.mutationFields((t) => ({
  login: t.field({
    type: SessionType,
    description: 'Exchanges a username and password for a session token.',
    authScopes: anyone,
    args: { username: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, context) => auth.login(context.services, args, context.clientIp),
  }),
  logout: t.boolean({
    description: 'Revokes the session token used for this request.',
    authScopes: signedIn,
    resolve: async (_root, _args, context) => {
      await auth.logout(context.services, principalOf(context));
      return true;
    },
  }),
  changePassword: t.field({
    type: SessionType,
    description: 'Changes the own password, ends every other session and returns a new one.',
    authScopes: signedIn,
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: (_root, { input }, context) => auth.changePassword(context.services, principalOf(context), input),
  }),
}));
