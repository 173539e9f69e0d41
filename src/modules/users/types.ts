import { builder } from '../../graphql/builder.ts';
import type { Context } from '../../graphql/context.ts';
import { AuthSource, Role } from '../../generated/prisma/enums.ts';
import { effectivePreferences } from '../notifications/preferences.ts';
import { privateUserFieldAccess } from './permissions.ts';

export const RoleEnum = builder.enumType(Role, { name: 'Role' });

const AuthSourceEnum = builder.enumType(AuthSource, {
  name: 'AuthSource',
  description: 'local: signs in with a password kept here; saml: through single sign-on, with no password here.',
});

/** The scope of a private field: readable by the user themself and admins (see privateUserFieldAccess). */
const privateField = {
  authScopes: (user: { id: string }, _args: object, context: Context) => ({
    access: privateUserFieldAccess(context.auth.principal, user.id),
  }),
};

export const UserType = builder.prismaObject('User', {
  description: 'A user account, as admins and the user themself see it. Passwords are never exposed; other users appear as UserSummary.',
  fields: (t) => ({
    id: t.exposeID('id'),
    username: t.exposeString('username'),
    displayName: t.exposeString('displayName', { nullable: true }),
    email: t.exposeString('email', { nullable: true, ...privateField }),
    role: t.expose('role', { type: RoleEnum, ...privateField }),
    isActive: t.exposeBoolean('isActive', privateField),
    mustChangePassword: t.exposeBoolean('mustChangePassword', privateField),
    authSource: t.expose('authSource', { type: AuthSourceEnum, ...privateField }),
    trackerAccountId: t.exposeString('trackerAccountId', { nullable: true, ...privateField }),
    createdAt: t.expose('createdAt', { type: 'DateTime', ...privateField }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', ...privateField }),
    preferences: t.field({
      type: 'JSON',
      nullable: true,
      description:
        "Notification toggles (in_app_<notice>, email_<notice>: one per notice of the notice table the user's role can receive and channel it uses) and UI theme, merged over the defaults. Only the user themself or an admin may read them.",
      ...privateField,
      resolve: (user) => effectivePreferences(user.preferences, user.role),
    }),
  }),
});

/** How a user appears on other records (creator, assignee, …): only what names them, whoever asks. */
export const UserSummaryType = builder.prismaObject('User', {
  variant: 'UserSummary',
  description: 'Another user as every role may see them: id, username and display name.',
  fields: (t) => ({
    id: t.exposeID('id'),
    username: t.exposeString('username'),
    displayName: t.exposeString('displayName', { nullable: true }),
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

/** A user a lead may assign a test to: what names them and the role that tells which side they work on. */
export const AssignableUserType = builder.prismaObject('User', {
  variant: 'AssignableUser',
  description: 'An active user whose role works tests (red or blue, tech or lead): id, username, display name and role.',
  fields: (t) => ({
    id: t.exposeID('id'),
    username: t.exposeString('username'),
    displayName: t.exposeString('displayName', { nullable: true }),
    role: t.expose('role', { type: RoleEnum }),
  }),
});
