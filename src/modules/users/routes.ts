import { body, type Route } from '../../../rest-adapter/types.ts';
import { userRoles } from './permissions.ts';

const USER_FIELDS = `id username email role isActive displayName mustChangePassword
  trackerAccountId createdAt updatedAt`;

// The /users/me rows come first: Express would otherwise take "me" for an :id.
export const userRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users/me',
    tag: 'Users',
    summary: 'Own profile, with the effective notification and UI preferences',
    roles: userRoles.self,
    narrowsFieldAccess: 'an account that must change its password reaches only /auth/me and /auth/change-password',
    document: `query { me { ${USER_FIELDS} preferences } }`,
  },
  {
    method: 'PATCH',
    path: '/users/me/preferences',
    tag: 'Users',
    summary: 'Merge own preferences (keys in_app_<event>, email_<event>, theme); returns the effective preferences',
    roles: userRoles.self,
    document: 'mutation ($preferences: JSON!) { updateMyPreferences(preferences: $preferences) }',
    variables: { preferences: body() },
  },
  {
    method: 'GET',
    path: '/users',
    tag: 'Users',
    summary: 'List users (filters role, is_active, search)',
    roles: userRoles.list,
    document: `query ($role: Role, $isActive: Boolean, $search: String, $offset: Int, $limit: Int) {
      users(filter: { role: $role, isActive: $isActive, search: $search }, offset: $offset, limit: $limit) {
        items { ${USER_FIELDS} } total offset limit
      }
    }`,
  },
  {
    method: 'POST',
    path: '/users',
    tag: 'Users',
    summary: 'Create a user (body username, email, password, role, display_name); must_change_password is set',
    roles: userRoles.create,
    status: 201,
    document: `mutation ($input: CreateUserInput!) { createUser(input: $input) { ${USER_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    method: 'GET',
    path: '/users/:id',
    tag: 'Users',
    summary: 'One user',
    roles: userRoles.read,
    document: `query ($id: UUID!) { user(id: $id) { ${USER_FIELDS} } }`,
  },
  {
    method: 'PATCH',
    path: '/users/:id',
    tag: 'Users',
    summary: 'Update a user (any of email, role, is_active, password, display_name, tracker_account_id)',
    roles: userRoles.update,
    document: `mutation ($id: UUID!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { ${USER_FIELDS} } }`,
    variables: { input: body() },
  },
  {
    // Answers 200 with the deactivated user rather than 204: the record remains and the client sees is_active false.
    method: 'DELETE',
    path: '/users/:id',
    tag: 'Users',
    summary: 'Soft delete (deactivate) a user; answers the user',
    roles: userRoles.deactivate,
    document: `mutation ($id: UUID!) { deactivateUser(id: $id) { ${USER_FIELDS} } }`,
  },
];
