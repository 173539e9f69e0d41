import { allow } from '../../graphql/access.ts';
import { builder } from '../../graphql/builder.ts';
import { Role } from '../../generated/prisma/enums.ts';
import { effectivePreferences } from '../notifications/preferences.ts';
import { preferencesReaders } from './permissions.ts';

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
    preferences: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Notification toggles (in_app_<event>, email_<event>) and UI theme, merged over the defaults. Only the user themself or an admin may read them.',
      authScopes: (user, _args, context) => allow(preferencesReaders(context.auth.principal, user.id)),
      resolve: (user) => effectivePreferences(user.preferences),
    }),
  }),
});

export const UserFilterInput = builder.inputType('UserFilter', {
  fields: (t) => ({
    role: t.field({ type: RoleEnum, required: false }),
    isActive: t.boolean({ required: false }),
    search: t.string({ required: false, description: 'Matches username, e-mail or display name (case-insensitive).' }),
  }),
});

export const CreateUserInput = builder.inputType('CreateUserInput', {
  fields: (t) => ({
    username: t.string({ required: true, description: '3 to 150 characters: letters, digits and . _ @ -' }),
    email: t.string({ required: false }),
    password: t.string({ required: true, description: 'Temporary password (12 to 256 characters, not the username).' }),
    role: t.field({ type: RoleEnum, required: true }),
    displayName: t.string({ required: false }),
    trackerAccountId: t.string({ required: false }),
  }),
});

export const UpdateUserInput = builder.inputType('UpdateUserInput', {
  fields: (t) => ({
    email: t.string({ required: false }),
    role: t.field({ type: RoleEnum, required: false }),
    isActive: t.boolean({ required: false }),
    password: t.string({ required: false, description: 'Resets the password: the user must change it at next sign-in.' }),
    displayName: t.string({ required: false }),
    trackerAccountId: t.string({ required: false }),
  }),
});
