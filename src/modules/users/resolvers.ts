import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { cappedListCost } from '../../graphql/cost.ts';
import { principalOf } from '../../graphql/context.ts';
import { pageArgs, pagedList, pageType, pagingOf } from '../../graphql/pagination.ts';
import { userRoles } from './permissions.ts';
import * as users from './service.ts';
import { AssignableUserType, CreateUserInput, UpdateUserInput, UserFilterInput, UserType } from './types.ts';

const UserPage = pageType('UserPage', UserType);

builder.queryFields((t) => ({
  users: t.field({
    type: UserPage,
    ...pagedList(users.USER_PAGE, 'Users matching the filter, by username'),
    authScopes: allow(userRoles.list),
    args: {
      filter: t.arg({ type: UserFilterInput, required: false }),
      ...pageArgs(t.arg),
    },
    resolve: (_root, { filter, offset, limit }, context) => users.listUsers(context.services, filter ?? {}, pagingOf({ offset, limit })),
  }),
  assignableUsers: t.prismaField({
    type: [AssignableUserType],
    complexity: cappedListCost(users.ASSIGNABLE_USERS_MAX),
    description: `Active users who may be assigned a test (red and blue techs and leads), by username, at most ${users.ASSIGNABLE_USERS_MAX}.`,
    authScopes: allow(userRoles.listAssignable),
    resolve: (query, _root, _args, context) => users.listAssignableUsers(context.services, query),
  }),
  user: t.prismaField({
    type: 'User',
    authScopes: allow(userRoles.read),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => users.getUser(context.services, String(id), query),
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: 'User',
    description: 'Creates a user who must change the given password at first sign-in.',
    authScopes: allow(userRoles.create),
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: (query, _root, { input }, context) => users.createUser(context.services, principalOf(context), input, query),
  }),
  updateUser: t.prismaField({
    type: 'User',
    description: 'Changes a user. Admins cannot deactivate or demote themselves or the last active admin.',
    authScopes: allow(userRoles.update),
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: (query, _root, { id, input }, context) => users.updateUser(context.services, principalOf(context), String(id), input, query),
  }),
  deactivateUser: t.prismaField({
    type: 'User',
    description: 'Soft delete: the user can no longer sign in, and their sessions and API keys stop working.',
    authScopes: allow(userRoles.deactivate),
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (query, _root, { id }, context) => users.deactivateUser(context.services, principalOf(context), String(id), query),
  }),
  updateMyPreferences: t.field({
    type: 'JSON',
    description: 'Merges the given keys (in_app_<event>, email_<event>, theme) into the own preferences; returns the effective ones.',
    authScopes: allow(userRoles.self),
    args: { preferences: t.arg({ type: 'JSON', required: true }) },
    resolve: (_root, { preferences }, context) => users.updateMyPreferences(context.services, principalOf(context), preferences),
  }),
}));
